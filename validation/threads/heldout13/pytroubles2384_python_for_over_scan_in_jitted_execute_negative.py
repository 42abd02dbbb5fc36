# source: https://pytroubles.com/en/posts/id2384-jax-performance-choosing-python-for-loop-vs-jax-lax-scan-jit-trade-offs-and-unroll-tuning
# expect: none
# runtime: COMPILES 1 CALLS 6
# why: A Python for loop inside a jitted execute() unrolls five scans at trace time, but execute is compiled once and reused for every outer step.

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
import jax
import jax.numpy as jnp

num_train_steps = 2  # scaffolding: loop sizes cut down
num_env_steps = 3  # scaffolding
num_algo_iters = 5  # the post: 5 iterations for the c loop
inner_scan_len = 2  # the post: 2 iterations for the innermost scan
init_carry = jnp.zeros(4)  # scaffolding


def rollout_step(carry, _):  # scaffolding: stand-in rollout body
    return carry * 0.9 + 1.0, None


@jax.jit
def execute():
  for c in range(num_algo_iters):
    jax.lax.scan(rollout_step, init_carry, xs=None, length=inner_scan_len)


for a in range(num_train_steps):
  for b in range(num_env_steps):
    execute()
_report({"jit(execute)"}, num_train_steps * num_env_steps)  # scaffolding
