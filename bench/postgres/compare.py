#!/usr/bin/env python3
"""compare.py A B: two files of answers, one JSON document per line (client dump), compared as
parsed JSON (member order and number spelling aside: 1e-05 == 0.00001). Prints the number of
answers that differ and the first difference; exits 1 if any differ."""
import json
import sys

a = open(sys.argv[1]).read().splitlines()
b = open(sys.argv[2]).read().splitlines()
bad = 0
for i, (x, y) in enumerate(zip(a, b)):
    if json.loads(x) != json.loads(y):
        if bad == 0:
            print(f"first difference at answer {i}:\n  {x[:600]}\n  {y[:600]}")
        bad += 1
print(f"{len(a)} / {len(b)} answers, {bad} differ")
sys.exit(1 if bad or len(a) != len(b) else 0)
