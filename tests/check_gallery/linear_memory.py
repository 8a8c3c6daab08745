"""Correct: O(n) memory, one row of margins at a time (O(n^2) time)."""


def solve(coins):
    n = len(coins)
    margins = list(coins)
    for gap in range(1, n):
        margins = [
            max(coins[i] - margins[i + 1], coins[i + gap] - margins[i]) for i in range(n - gap)
        ]
    return (sum(coins) + margins[0]) // 2
