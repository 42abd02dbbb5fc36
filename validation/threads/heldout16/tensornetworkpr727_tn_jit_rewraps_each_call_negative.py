# source: https://github.com/google/TensorNetwork/pull/727
# expect: none
# runtime: COMPILES 1 CALLS 3
# why: tn.jit's wrapper calls backend_obj.jit(fun, ...) (jax.jit) anew on every call, but always on the same function object with the same static backend string, so JAX's cache is hit: jit_me compiles once for 3 calls.
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
from typing import Union, Iterable, Optional, Text, Callable
from functools import partial
import functools
import types  # scaffolding

import jax
import jax.numpy as jnp
import numpy as np


class JaxBackend:  # scaffolding: the jit method of tensornetwork/backends/jax/jax_backend.py
  name = "jax"  # scaffolding

  def jit(self, fun, *args, **kwargs):
    return jax.jit(fun, *args, **kwargs)


AbstractBackend = JaxBackend  # scaffolding
backends = types.SimpleNamespace(backend_factory=types.SimpleNamespace(  # scaffolding
    get_backend=lambda b: JaxBackend() if b in ("jax", None) or isinstance(b, JaxBackend) else (_ for _ in ()).throw(ValueError(b))))  # scaffolding
backend_contextmanager = types.SimpleNamespace(get_default_backend=lambda: "jax")  # scaffolding


# tensornetwork/backends/decorators.py as added by PR #727 (65ffca58; docstring cut)
def jit(fun: Callable,
        backend: Union[Text, AbstractBackend] = None,
        backend_argnum: Optional[int] = None,
        static_argnums: Union[int, Iterable[int]] = (), device=None,
        xla_backend: Optional[str] = None) -> Callable:
  argnum_mode = False
  if backend_argnum is not None:
    if backend is not None:
      raise ValueError("backend must be None if backend_argnum is specified.")
    argnum_mode = True
    static_argnums = tuple(list(static_argnums) + [backend_argnum,])

  if not argnum_mode:
    if backend is None:
      backend = backend_contextmanager.get_default_backend()
    backend_obj = backends.backend_factory.get_backend(backend)

    @functools.wraps(fun)
    def wrapper(*args, **kwargs):
      jitted = backend_obj.jit(fun, static_argnums=static_argnums,
                               device=device, backend=xla_backend)
      return jitted(*args, **kwargs)
  else:
    @functools.wraps(fun)
    def wrapper(*args, **kwargs):
      backend = args[backend_argnum]
      try:
        backend_obj = backends.backend_factory.get_backend(backend)
      except ValueError:
        errstr = (f"backend_argnum={backend_argnum} was specified"
                  f"but the corresponding argument {args[backend_argnum]}"
                  f"did not specify a backend.")
        raise ValueError(errstr)
      jitted = backend_obj.jit(fun, static_argnums=static_argnums,
                               device=device, backend=xla_backend)
      return jitted(*args, **kwargs)
  return wrapper


tn = types.SimpleNamespace(jit=jit)  # scaffolding


# the PR description's example
@partial(tn.jit, backend_argnum=2)
def jit_me(A, B, backend):
    return A@B

a, b = np.random.rand(4, 4).astype(np.float32), np.random.rand(4, 4).astype(np.float32)  # scaffolding
calls = 0  # scaffolding
for _ in range(3):  # scaffolding
    jit_me(a, b, "jax")
    calls += 1  # scaffolding
_report({"jit(jit_me)"}, calls)  # scaffolding
