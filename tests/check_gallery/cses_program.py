"""CSES 1097 as a contest program: reads n and the row, prints the first player's total.
Right, but O(n^2) in Python: over CSES' 1 s at n = 5,000."""

import sys


def main():
    data = sys.stdin.buffer.read().split()
    n = int(data[0])
    x = list(map(int, data[1 : n + 1]))
    diff = x[:]
    for length in range(2, n + 1):
        diff = [max(x[i] - diff[i + 1], x[i + length - 1] - diff[i]) for i in range(n - length + 1)]
    print((sum(x) + diff[0]) // 2)


main()
