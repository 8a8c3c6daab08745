"""EDPC L as a contest program, wrong: prints the first player's total where the problem
asks for the margin X - Y."""

n = int(input())
a = list(map(int, input().split()))
diff = a[:]
for length in range(2, n + 1):
    diff = [max(a[i] - diff[i + 1], a[i + length - 1] - diff[i]) for i in range(n - length + 1)]
print((sum(a) + diff[0]) // 2)
