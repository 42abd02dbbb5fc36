# source: https://github.com/jax-ml/jax/issues/1671
# expect: unhashable-static at line 55
# runtime: ERROR ValueError
# why: jit_func marks use_b static, but pmap(jit_func) hands it a traced per-device value, so the inner jit tries to hash a tracer as a static argument and raises ValueError (non-hashable static argument).

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
os.environ["XLA_FLAGS"] = "--xla_force_host_platform_device_count=8"  # scaffolding: 8 CPU devices for pmap
import jax 
import jax.numpy as np

def bcast_all_devices(obj, num_devices):
  obj_stacked = jax.tree.map(lambda x: np.stack([x] * num_devices, axis=0), obj)  # jax.tree_map in 2019
  obj_all_devices = jax.pmap(lambda x: x)(obj_stacked)  # shard across devices
  return obj_all_devices

def func(a, b, use_b):
  if use_b:
    return a * b
  else:
    return a ** 2
    
jit_func = jax.jit(func, static_argnums=2)
def wrapper(a, b=None):
  b, use_b = (1, False) if b is None else (b, True)
  return jit_func(a, b, use_b)

pmapped = jax.pmap(jit_func)

def p_wrapper(a, b=None):
  num_devices = a.shape[0]
  b, use_b = (1, False) if b is None else (b, True)
  use_b = bcast_all_devices(use_b, num_devices)
  return pmapped(a, b, use_b)

a = np.ones([8, 2]) * 2
b = np.arange(16).reshape([8, 2])
print(wrapper(a[0], b[0]))
print(wrapper(a[0]))
try:  # scaffolding
    print(p_wrapper(a, b))
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")
