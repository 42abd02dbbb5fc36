# source: https://github.com/jax-ml/jax/issues/2777
# expect: none
# runtime: COMPILES 6 CALLS 6
# why: The jitted inner_loop is called from inside the jitted sample (in a Python loop and in a scan body); nested jit is inlined, so inner_loop never compiles on its own, and sample compiles once per distinct static (n, scan) pair, each of which needs its own program.

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
import functools
import jax
import jax.numpy as jnp

num_obs = 8

@jax.jit
def inner_loop(key, ra, rb):
  gate_shape = (num_obs, 1, 1, 1)
  key, shard = jax.random.split(key)

  gate_forward = jax.random.uniform(
      shard, gate_shape, dtype=jnp.float32, minval=0.0, maxval=1.0)

  gate_forward = gate_forward.reshape([-1, 1])
  new_ra = 0.5 * (ra + gate_forward * ra + (1 - gate_forward) * rb)
  new_rb = 0.5 * (rb + gate_forward * ra + (1 - gate_forward) * rb)
  ra = new_ra
  rb = new_rb
  return key, ra, rb

@functools.partial(jax.jit, static_argnums=[1, 2])
def sample(key, n, scan=False):

  ra = jnp.array([[1.0, 0.0] for _ in range(num_obs)])
  rb = jnp.array([[0.0, 1.0] for _ in range(num_obs)])

  if scan:
    (key, ra, rb), () = jax.lax.scan(
        lambda c, _: (inner_loop(*c), ()),
        (key, ra, rb), (), length=n)
  else:
    for _ in range(n):
      key, ra, rb = inner_loop(key, ra, rb)

  return ra

print('scan=True')
for i in range(1, 4):  # scaffolding: range(1, 9) cut to range(1, 4)
  _ = sample(jax.random.PRNGKey(1), i, True)  # scaffolding: %time dropped
print('scan=False')
for i in range(1, 4):  # scaffolding: range(1, 9) cut to range(1, 4)
  _ = sample(jax.random.PRNGKey(1), i, False)  # scaffolding: %time dropped
_report({"jit(sample)", "jit(inner_loop)"}, 6)  # scaffolding
