"""The census through Dask on every core against cores x the one-core figure, same length.

    python scripts/dask_share.py                 # length 30 over {1,2}, 2 workers
    python scripts/dask_share.py --length 26 --workers 2 --shard-rows 16777216

The one-core figure is the same census in this process (``workers=0``), rows per second of
wall clock and of CPU time. The Dask figure runs on a warm local cluster bound to 127.0.0.1
(as :func:`coinrow.census.run.dask_client` starts it: one single-threaded worker process per
core; kernels loaded before the clock), rows per second of wall clock; the workers' CPU
seconds (``getrusage`` through ``client.run``) give the share in CPU terms too, which a
machine shared with other work distorts less. The load average is printed with each figure.
"""

from __future__ import annotations

import argparse
import json
import os
import time
from typing import Any


def cpu_seconds() -> float:
    import resource

    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def main() -> None:
    from coinrow.census import Census, Words
    from coinrow.census.run import dask_client

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--length", type=int, default=30)
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--shard-rows", type=int, default=None)
    parser.add_argument("--rounds", type=int, default=2, help="Dask runs (the best counts)")
    options = parser.parse_args()
    family = Words.of("1,2", options.length)
    out: dict[str, Any] = {"length": options.length, "rows": family.rows}
    census = Census(family, shard_rows=options.shard_rows)
    out["shards"] = census.shard_count

    Census(Words.of("1,2", 12)).run(workers=0)  # load the kernels
    out["load_one_core"] = os.getloadavg()[0]
    wall, cpu = time.perf_counter(), cpu_seconds()
    result = census.run(workers=0)
    wall, cpu = time.perf_counter() - wall, cpu_seconds() - cpu
    assert result.rows == family.rows
    out["one_core_rows_per_second"] = family.rows / wall
    out["one_core_rows_per_cpu_second"] = family.rows / cpu

    with dask_client(None, options.workers, timeout=30) as client:  # as the census starts it
        address = client.scheduler.address
        Census(Words.of("1,2", 16), shard_rows=1 << 12).run(scheduler=address)  # warm
        best: dict[str, float] = {}
        for _ in range(options.rounds):
            load = os.getloadavg()[0]
            before = sum(client.run(cpu_seconds).values())
            own = cpu_seconds()
            started = time.perf_counter()
            result = Census(family, shard_rows=options.shard_rows).run(scheduler=address)
            wall = time.perf_counter() - started
            own = cpu_seconds() - own
            workers_cpu = sum(client.run(cpu_seconds).values()) - before
            assert result.rows == family.rows
            if not best or wall < best["dask_wall_seconds"]:
                best = {
                    "load_dask": load,
                    "dask_wall_seconds": wall,
                    "dask_workers_cpu_seconds": workers_cpu,
                    "dask_client_cpu_seconds": own,
                }
    out.update(best)
    cores = options.workers
    out["workers"] = cores
    out["dask_rows_per_second"] = family.rows / best["dask_wall_seconds"]
    out["share_wall"] = out["dask_rows_per_second"] / (cores * out["one_core_rows_per_second"])
    out["share_wall_vs_one_core_cpu"] = out["dask_rows_per_second"] / (
        cores * out["one_core_rows_per_cpu_second"]
    )
    out["share_cpu"] = (family.rows / best["dask_workers_cpu_seconds"]) / out[
        "one_core_rows_per_cpu_second"
    ]
    print(json.dumps(out, indent=2))


if __name__ == "__main__":
    main()
