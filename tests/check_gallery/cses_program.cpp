// CSES 1097 in C++: right, O(n^2) with long long.
#include <bits/stdc++.h>
using namespace std;

int main() {
    int n;
    if (!(cin >> n)) return 1;
    vector<long long> x(n), diff(n);
    long long total = 0;
    for (auto &v : x) { cin >> v; total += v; }
    diff = x;
    for (int len = 2; len <= n; ++len)
        for (int i = 0; i + len - 1 < n; ++i)
            diff[i] = max(x[i] - diff[i + 1], x[i + len - 1] - diff[i]);
    cout << (total + diff[0]) / 2 << "\n";
}
