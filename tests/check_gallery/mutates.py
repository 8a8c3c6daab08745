"""Wrong: pops the coins off its input while solving."""


def maxCoins(coins):
    total = sum(coins)
    margins = []
    while coins:
        margins.append(coins.pop())
    margins.reverse()
    n = len(margins)
    row = list(margins)
    for gap in range(1, n):
        row = [max(margins[i] - row[i + 1], margins[i + gap] - row[i]) for i in range(n - gap)]
    return (total + row[0]) // 2
