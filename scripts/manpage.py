#!/usr/bin/env python3
"""Writes quire's manual page (roff, section 1) from the command definitions themselves:
`quire --experimental-dump-help` (swift-argument-parser's description of every command, option and
argument), so the page cannot drift from `--help`.

    scripts/manpage.py QUIRE > quire.1
"""
import json
import subprocess
import sys


def roff(text):
    """Text for roff: backslashes and leading dots or quotes escaped, other than ASCII as glyphs."""
    text = (text or "").replace("\\", "\\e")
    text = "".join(c if ord(c) < 128 else "\\[u%04X]" % ord(c) for c in text)
    lines = []
    for line in text.split("\n"):
        if line.startswith((".", "'")):
            line = "\\&" + line
        lines.append(line)
    return "\n".join(lines)


def flag_names(arg):
    names = []
    for n in arg.get("names", []):
        names.append(("-" if n["kind"] == "short" else "--") + n["name"])
    return names


def usage(arg):
    kind = arg["kind"]
    if kind == "positional":
        text = "<" + arg.get("valueName", "value") + ">"
    else:
        names = flag_names(arg)
        first = names[-1] if names else "--" + arg.get("valueName", "")
        text = first if kind == "flag" else f"{first} <{arg.get('valueName', 'value')}>"
    if arg.get("isRepeating"):
        text += " ..."
    return f"[{text}]" if arg.get("isOptional") else text


def command(lines, cmd, path):
    name = " ".join(path)
    lines.append(f".SS {roff(name)}")
    if cmd.get("abstract"):
        lines.append(roff(cmd["abstract"]))
    args = [a for a in cmd.get("arguments", []) if a.get("shouldDisplay", True) and not any(
        n["name"] in ("help", "version") for n in a.get("names", []))]
    lines.append(".PP")
    lines.append(".B " + roff(name) + (" " + roff(" ".join(usage(a) for a in args)) if args else ""))
    if cmd.get("discussion"):
        lines.append(".PP")
        lines.append(roff(cmd["discussion"]))
    for a in args:
        lines.append(".TP")
        label = ", ".join(flag_names(a)) if a["kind"] != "positional" else "<" + a.get("valueName", "value") + ">"
        if a["kind"] == "option":
            label += " <" + a.get("valueName", "value") + ">"
        lines.append(".B " + roff(label))
        lines.append(roff(a.get("abstract", "")))
    for sub in cmd.get("subcommands", []):
        if sub.get("shouldDisplay", True):
            command(lines, sub, path + [sub["commandName"]])


def main():
    dump = json.loads(subprocess.run([sys.argv[1], "--experimental-dump-help"], check=True, capture_output=True, text=True).stdout)
    top = dump["command"]
    lines = [
        '.TH QUIRE 1 "" "quire" "User Commands"',
        ".ad l",
        ".SH NAME",
        "quire \\- " + roff(top.get("abstract", "")),
        ".SH SYNOPSIS",
        ".B quire",
        "[\\-C \\fIvault\\fR] \\fIcommand\\fR [\\fIoptions\\fR]",
        ".SH DESCRIPTION",
        roff(top.get("discussion", "")),
        ".SH COMMANDS",
    ]
    for sub in top.get("subcommands", []):
        if sub.get("shouldDisplay", True) and sub["commandName"] != "help":
            command(lines, sub, ["quire", sub["commandName"]])
    lines += [
        ".SH FILES",
        ".TP", ".I .quire/config.yaml", "The vault's settings (quire config).",
        ".TP", ".I .quire/log/DEVICE.log", "The review log, one file per device.",
        ".TP", ".I .quire/cache/", "The index and search caches (rebuilt when missing).",
        ".SH SEE ALSO",
        "quire help TOPIC (format, queries, scheduling, curation, sync, interchange), git(1)",
    ]
    print("\n".join(lines))


if __name__ == "__main__":
    main()
