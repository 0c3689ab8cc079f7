#!/usr/bin/env python3
"""Scores `quire ask` on a question set, with and without the language model.

Usage: scripts/ask-bench.py QUIRE VAULT QUESTIONS.tsv [--llm-only | --no-llm-only]

QUESTIONS.tsv has a header, then `question<TAB>document<TAB>fact` rows (document NONE: nothing in
the vault answers it). A question is right when the answer contains the fact and cites the
document; a NONE question is right when declined. Prints each wrong answer, the score, and the
median and worst seconds a question took, for each pass.
"""
import json, statistics, subprocess, sys, time


def score(quire, vault, rows, llm):
    right = declined = answerable = unanswerable = phrased = 0
    seconds = []
    for row in rows:
        question, document, fact = (row + ["", ""])[:3]
        started = time.monotonic()
        run = subprocess.run([quire, "ask", question, "--json"] + ([] if llm else ["--no-llm"]),
                             cwd=vault, capture_output=True, text=True)
        seconds.append(time.monotonic() - started)
        answer = json.loads(run.stdout or "{}")
        text = " ".join(s.get("text", "") for s in answer.get("sentences", [])).replace("\\", "").replace("*", "")
        cited = [s.get("path") for s in answer.get("sources", [])]
        phrased += bool(answer.get("phrased_by_model"))
        if document == "NONE":
            unanswerable += 1
            ok = not answer.get("found")
            declined += ok
        else:
            answerable += 1
            ok = answer.get("found") and fact.lower() in text.lower() and document in cited
            right += bool(ok)
        if not ok:
            print(f"  wrong: {question} -> {text[:160]!r} {cited}")
        elif answer.get("phrased_by_model"):
            print(f"  phrased: {question} -> {text!r}")
    label = "with the language model" if llm else "without it"
    print(f"{label}: {right}/{answerable} right, {declined}/{unanswerable} declined, {phrased} phrased by the model; "
          f"median {statistics.median(seconds):.2f} s, worst {max(seconds):.2f} s a question")
    return right, answerable


def main():
    quire, vault, questions = sys.argv[1:4]
    rows = [line.rstrip("\n").split("\t") for line in open(questions, encoding="utf-8").readlines()[1:] if line.strip()]
    passes = [False, True]
    if "--llm-only" in sys.argv: passes = [True]
    if "--no-llm-only" in sys.argv: passes = [False]
    for llm in passes:
        score(quire, vault, rows, llm)


if __name__ == "__main__":
    main()
