"""Wrong: the table's last column is never read (answers for the row without its last coin)."""


def maxCoins(coins):
    n = len(coins)
    if n == 1:
        return coins[0]
    dp = [[0] * n for _ in range(n)]
    for i in range(n):
        dp[i][i] = coins[i]
    for gap in range(1, n):
        for i in range(n - gap):
            j = i + gap
            dp[i][j] = max(coins[i] - dp[i + 1][j], coins[j] - dp[i][j - 1])
    margin = dp[0][n - 2]
    return (sum(coins[:-1]) + margin) // 2
