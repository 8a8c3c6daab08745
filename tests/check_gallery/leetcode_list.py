"""Right: a LeetCode 486 solution as pasted from the site: `List` and `cache` are used
without importing them (LeetCode's judge provides them)."""


class Solution:
    def PredictTheWinner(self, nums: List[int]) -> bool:  # noqa: F821
        @cache  # noqa: F821
        def margin(i: int, j: int) -> int:
            if i > j:
                return 0
            return max(nums[i] - margin(i + 1, j), nums[j] - margin(i, j - 1))

        return margin(0, len(nums) - 1) >= 0
