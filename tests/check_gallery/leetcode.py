"""Correct, LeetCode 486 style: a Solution class, answer "wins or ties"."""


class Solution:
    def PredictTheWinner(self, nums: list[int]) -> bool:
        n = len(nums)
        margins = list(nums)
        for gap in range(1, n):
            margins = [
                max(nums[i] - margins[i + 1], nums[i + gap] - margins[i]) for i in range(n - gap)
            ]
        return margins[0] >= 0
