#!/usr/bin/env python3
"""Writes an NDJSON file of chat messages for the Spark example: every line has an id,
and one line in about fifty fails on purpose (unclosed markup, not JSON, blank)."""
import json
import random
import sys

def main():
    path, count = sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 100_000
    rnd = random.Random(17)
    words = "the butler did it in the library with a candlestick at midnight ünïcödé 😀".split()
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        for i in range(count):
            kind = i % 53
            if kind == 7:
                f.write("not json at all\n")
            elif kind == 19:
                f.write("\n")
            elif kind == 31:
                f.write(json.dumps({"id": i, "text": "unclosed ||spoiler"}, ensure_ascii=False) + "\n")
            else:
                text = " ".join(rnd.choice(words) for _ in range(rnd.randint(3, 30)))
                cut = text.split(" ")
                k = rnd.randrange(len(cut))
                cut[k] = "||" + cut[k] + "||"
                f.write(json.dumps({"id": f"m{i}", "text": " ".join(cut)}, ensure_ascii=False) + "\n")

if __name__ == "__main__":
    main()
