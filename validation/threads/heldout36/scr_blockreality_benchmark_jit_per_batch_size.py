# source: https://github.com/rocky59487/Block-Realityapi-Fast-design/blob/55239d283f055d77c4d49144c1a621bf24869434/ml/reborn-ml/src/reborn_ml/experiments/exp_008_a100_benchmark.py
# expect: none
# runtime: COMPILES 3 CALLS 33
# why: The A100 benchmark builds jax.jit(lambda ...) inside its loop over batch sizes, but each iteration uses a new input shape anyway and the 10 timed calls reuse the wrapper, so it compiles once per batch size (3 for 3 sizes), which is what the benchmark means to time.

# --- measurement harness: counts XLA backend compiles per jitted function name ---
import os

os.environ.setdefault("JAX_PLATFORMS", "cpu")
from jax import monitoring as _monitoring

_COMPILED = []  # one entry per XLA compile, e.g. "jit(step)"


def _on_duration(event, duration_secs, **kwargs):
    if event == "/jax/core/compile/backend_compile_duration":
        _COMPILED.append(kwargs.get("fun_name"))


_monitoring.register_event_duration_secs_listener(_on_duration)


def _report(targets, calls):
    n = sum(1 for name in _COMPILED if name in targets)
    print(f"COMPILES {n} CALLS {calls}")


# --- end harness ---
import time

import jax  # scaffolding
import jax.numpy as jnp  # scaffolding
import numpy as np
from flax import linen as nn  # scaffolding


class StyleConditionedSSGO(nn.Module):  # scaffolding: stand-in for reborn_ml.models.style_net
    hidden: int
    modes: int

    @nn.compact
    def __call__(self, x, sid, update_stats=False):
        h = nn.Dense(self.hidden)(x) + nn.Embed(4, self.hidden)(sid)[:, None, None, None, :]
        return nn.Dense(6)(nn.gelu(h))


N_CALLS = 0  # scaffolding


def benchmark_forward(grid_size: int, batch_sizes: list) -> dict:
    global N_CALLS  # scaffolding
    model = StyleConditionedSSGO(hidden=48, modes=6)
    rng = jax.random.PRNGKey(0)
    L = grid_size
    results = {}

    for B in batch_sizes:
        print(f"\n  B={B}, 網格 {L}³ ...")
        dummy_x = jnp.zeros((B, L, L, L, 6))
        dummy_sid = jnp.array([0] * B)
        variables = model.init(rng, dummy_x, dummy_sid, update_stats=False)

        apply_fn = jax.jit(lambda p, x, s: model.apply({"params": p}, x, s, update_stats=False))

        t0 = time.time()
        _ = apply_fn(variables["params"], dummy_x, dummy_sid).block_until_ready()
        jit_time = time.time() - t0

        times = []
        for _ in range(10):
            t0 = time.time()
            _ = apply_fn(variables["params"], dummy_x, dummy_sid).block_until_ready()
            times.append(time.time() - t0)
        N_CALLS += 11  # scaffolding

        mean_ms = np.mean(times) * 1000
        results[f"B{B}"] = {
            "jit_compile_s": round(jit_time, 2),
            "forward_mean_ms": round(mean_ms, 1),
            "steps_per_second": round(1000.0 / mean_ms, 1) if mean_ms > 0 else 0,
        }
        print(f"    JIT：{jit_time:.2f}s  前向：{mean_ms:.1f}ms  吞吐：{results[f'B{B}']['steps_per_second']:.1f} s/s")

    return results


grid = 8  # scaffolding: main()'s --grid default
batch_sizes = [1, 2] if grid >= 16 else [1, 2, 4]
benchmark_forward(grid, batch_sizes)
_report({"jit(<lambda>)"}, N_CALLS)
