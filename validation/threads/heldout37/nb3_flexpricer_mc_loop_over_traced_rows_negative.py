# source: https://github.com/albertium/FlexPricer/blob/b4e5d8b4e3184716973ed79c16a813fe838b1399/monte_carlo.py
# expect: none
# runtime: COMPILES 2 CALLS 3
# why: The jitted Monte Carlo pricer iterates a Python for loop over the rows of a traced array and unpacks its shape; both are fine under jit (fixed shape, unrolled), and vmap(value_and_grad(price_bs)) over 200 strikes, rebuilt in every main() call, compiles price_bs once for the forward and once for the backward pass and reuses both on later calls.

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


import jax.numpy as np
import jax as jx
import time
# (plotly imports dropped: plotting cut)


@jx.jit
def price_bs(s: float, k: float, r: float, q: float, sig: float, t: float, innovations: np.ndarray) -> float:
    n, m = innovations.shape
    dt = t / n
    total_vol = sig * np.sqrt(dt)
    var = sig ** 2
    spots = s * np.ones(m)
    for innovation in innovations:
        spots *= np.exp(-0.5 * var * dt + total_vol * innovation)

    return np.mean(np.maximum(spots - k, 0))


def main():
    s = 100.0
    k = 100.0
    r = 0.0
    q = 0.0
    sig = 0.2
    t = 0.5
    n, m = 15, 1000  # scaffolding: m cut from 100000
    key = jx.random.PRNGKey(0)
    innovations = jx.random.normal(key, (n, m), dtype=np.float32)
    strikes = np.linspace(50, 150, 200)

    start = time.time()
    jacob_fn = jx.vmap(jx.value_and_grad(price_bs, (0, 4)), in_axes=(None, 0, None, None, None, None, None))
    prices, (deltas, vegas) = jacob_fn(s, strikes, r, q, sig, t, innovations)
    print(f'It takes {time.time() - start:.2f}s')
    # (plotly figure cut)
    return prices  # scaffolding


for _ in range(3):  # scaffolding: the script's `if __name__ == '__main__':` guard, run 3 times
    main()
_report({"jit(price_bs)"}, 3)
