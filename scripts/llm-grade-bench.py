#!/usr/bin/env python3
"""How well a language model grades answers: asks it, for each judged answer of
Tests/QuireQuizTests/Fixtures/judged-answers.tsv, whether the answer means the card's answer, and
prints its agreement with the judgements.

Usage: scripts/llm-grade-bench.py URL   (an OpenAI-compatible server, e.g. http://127.0.0.1:8080)
"""
import json, pathlib, sys, urllib.request


def ask(url, messages):
    body = {"messages": messages, "temperature": 0, "max_tokens": 5}
    request = urllib.request.Request(url.rstrip("/") + "/v1/chat/completions", json.dumps(body).encode(),
                                     {"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=120) as reply:
        return json.load(reply)["choices"][0]["message"]["content"]


def main():
    url = sys.argv[1]
    table = pathlib.Path(__file__).resolve().parent.parent / "Tests/QuireQuizTests/Fixtures/judged-answers.tsv"
    rows = [line.rstrip("\n").split("\t") for line in table.read_text(encoding="utf-8").splitlines(True)[1:] if line.strip()]
    agree = said_yes = 0
    for prompt, expected, given, judged in rows:
        reply = ask(url, [
            {"role": "system", "content": "You grade a student's answer against the correct answer. Reply with one word: "
                                          "yes if the student's answer means the same as the correct answer, no otherwise."},
            {"role": "user", "content": f"Question: {prompt}\nCorrect answer: {expected}\nStudent's answer: {given}\n"
                                        "Is the student's answer correct?"}])
        yes = reply.strip().lower().startswith("yes")
        said_yes += yes
        agree += yes == (judged == "right")
    print(f"agreement {agree}/{len(rows)} = {agree / len(rows):.3f}; said yes {said_yes} times")


if __name__ == "__main__":
    main()
