"""Wrong for "total": returns the margin (first minus second)."""


def maxCoins(coins):
    n = len(coins)
    dp = [[0] * n for _ in range(n)]
    for i in range(n):
        dp[i][i] = coins[i]
    for gap in range(1, n):
        for i in range(n - gap):
            j = i + gap
            dp[i][j] = max(coins[i] - dp[i + 1][j], coins[j] - dp[i][j - 1])
    return dp[0][n - 1]
