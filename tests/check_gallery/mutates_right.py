"""Wrong in one way only: it reverses its input in place, yet answers right (the game is
symmetric under reversal)."""


def maxCoins(coins):
    coins.reverse()
    n = len(coins)
    row = list(coins)
    for gap in range(1, n):
        row = [max(coins[i] - row[i + 1], coins[i + gap] - row[i]) for i in range(n - gap)]
    return (sum(coins) + row[0]) // 2 if n else 0
