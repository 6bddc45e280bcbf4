"""The orjson pass of scripts/bench_check.sh: one Python thread turning every event line of a
frekans log (not blank, not a // comment) into objects with orjson, validating nothing.

    python orjson_pass.py LOG
"""

import sys

import orjson


def main() -> None:
    n = 0
    with open(sys.argv[1], "rb") as f:
        for line in f:
            line = line.strip()
            if not line or line.startswith(b"//"):
                continue
            orjson.loads(line)
            n += 1
    print(n)


if __name__ == "__main__":
    main()
