#!/usr/bin/env python3
"""What a language model does for quizzes, against an OpenAI-compatible server on this machine.

Usage:
  scripts/llm-bench.py grade URL        asks it, for each judged answer of
                                        Tests/QuireQuizTests/Fixtures/judged-answers.tsv, whether the
                                        answer means the card's answer; prints its agreement with the
                                        judgements.
  scripts/llm-bench.py distractors URL  asks it (after one worked example) for three wrong but
                                        believable answers to ten cards of the real material; prints
                                        them, and how many restate the right answer (a true distractor).
URL: the server's base, e.g. http://127.0.0.1:8080
"""
import json, pathlib, sys, urllib.request

CARDS = [
    ("Who published The Wealth of Nations?", "Adam Smith"),
    ("In tidy data, what does each variable form?", "a column"),
    ("What does the Naive Bayes model assume?", "the features are independent"),
    ("What is the hinge loss used for?", "SVMs"),
    ("What does the dplyr verb arrange do?", "reorders the rows"),
    ("What does the mitochondrion produce?", "ATP"),
    ("What are the three main types of economies?", "market, command and traditional"),
    ("What is the training error also called?", "the empirical error"),
    ("Which pipe operator does the tidyverse load?", "%>%"),
    ("What does dropout prevent?", "overfitting"),
]
EXAMPLE = [
    {"role": "system", "content": "Give three wrong but believable answers to the quiz question, one per line."},
    {"role": "user", "content": "Question: What is the capital of Australia?\nRight answer: Canberra"},
    {"role": "assistant", "content": "Sydney\nMelbourne\nPerth"},
]
GRADER = ("You grade a student's answer against the correct answer. Reply with one word: "
          "yes if the student's answer means the same as the correct answer, no otherwise.")


def ask(url, messages, max_tokens):
    body = {"messages": messages, "temperature": 0, "max_tokens": max_tokens}
    request = urllib.request.Request(url.rstrip("/") + "/v1/chat/completions", json.dumps(body).encode(),
                                     {"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=120) as reply:
        return json.load(reply)["choices"][0]["message"]["content"]


def grade(url):
    table = pathlib.Path(__file__).resolve().parent.parent / "Tests/QuireQuizTests/Fixtures/judged-answers.tsv"
    rows = [line.rstrip("\n").split("\t") for line in table.read_text(encoding="utf-8").splitlines(True)[1:] if line.strip()]
    agree = said_yes = 0
    for prompt, expected, given, judged in rows:
        reply = ask(url, [{"role": "system", "content": GRADER},
                          {"role": "user", "content": f"Question: {prompt}\nCorrect answer: {expected}\nStudent's answer: {given}\n"
                                                      "Is the student's answer correct?"}], 5)
        yes = reply.strip().lower().startswith("yes")
        said_yes += yes
        agree += yes == (judged == "right")
    print(f"agreement {agree}/{len(rows)} = {agree / len(rows):.3f}; said yes {said_yes} times")


def distractors(url):
    lines = restating = 0
    for question, answer in CARDS:
        reply = ask(url, EXAMPLE + [{"role": "user", "content": f"Question: {question}\nRight answer: {answer}"}], 60)
        proposed = [line.strip() for line in reply.splitlines() if line.strip()]
        lines += len(proposed)
        restating += sum(answer.lower() in line.lower() for line in proposed)
        print(f"{question} | {answer} -> {proposed}")
    print(f"{lines} lines proposed, {restating} of them restating the right answer")


if __name__ == "__main__":
    if len(sys.argv) != 3 or sys.argv[1] not in ("grade", "distractors"):
        sys.exit(__doc__)
    {"grade": grade, "distractors": distractors}[sys.argv[1]](sys.argv[2])
