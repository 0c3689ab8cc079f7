#!/usr/bin/env python3
"""What a language model proposes as wrong options for choice quizzes: for ten cards of the real
material, asks it (after one worked example) for three wrong but believable answers and prints
them, with how many of its lines restate the right answer (a distractor that is true).

Usage: scripts/llm-distractor-bench.py URL   (an OpenAI-compatible server, e.g. http://127.0.0.1:8080)
"""
import json, sys, urllib.request

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


def ask(url, messages):
    body = {"messages": messages, "temperature": 0, "max_tokens": 60}
    request = urllib.request.Request(url.rstrip("/") + "/v1/chat/completions", json.dumps(body).encode(),
                                     {"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=120) as reply:
        return json.load(reply)["choices"][0]["message"]["content"]


def main():
    url = sys.argv[1]
    lines = restating = 0
    for question, answer in CARDS:
        reply = ask(url, EXAMPLE + [{"role": "user", "content": f"Question: {question}\nRight answer: {answer}"}])
        proposed = [line.strip() for line in reply.splitlines() if line.strip()]
        lines += len(proposed)
        restating += sum(answer.lower() in line.lower() for line in proposed)
        print(f"{question} | {answer} -> {proposed}")
    print(f"{lines} lines proposed, {restating} of them restating the right answer")


if __name__ == "__main__":
    main()
