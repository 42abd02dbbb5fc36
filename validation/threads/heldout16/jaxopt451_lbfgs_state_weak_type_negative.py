# source: https://github.com/google/jaxopt/issues/451
# expect: none
# runtime: COMPILES 1 CALLS 4
# why: the reporter's bfloat16-params LBFGS set-up from the weak_type report: with jaxopt 0.8.5 the state from init_state and from update have the same types, so the jitted update compiles once for its 4 calls (the reported second compile no longer happens).
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
import jax
import jax.numpy as jnp
import jaxopt
import functools
import time


def make_fun_with_aux(fun, dtype=None, has_aux=False):
  @functools.wraps(fun)
  def wrapper(*args, **kwargs):
    value = fun(*args, **kwargs)
    if dtype is not None:
      value = value.astype(dtype)
    aux = {'plus_one': value + 1.0, 'times_two': 2.0 * value}
    return (value, aux) if has_aux else value
  return wrapper


N_SAMPLES = 100
N_FEATURES = 20
N_CLASSES = 3
N_INFORMATIVE = 5

PARAMS_DTYPE = jnp.bfloat16
FUN_DTYPE = jnp.float32
HAS_AUX = True

X = jax.random.normal(jax.random.PRNGKey(0), (N_SAMPLES, N_FEATURES))  # scaffolding: stand-in for make_classification
y = jax.random.randint(jax.random.PRNGKey(1), (N_SAMPLES,), 0, N_CLASSES)  # scaffolding
data = (X, y)  # scaffolding

init_params = jnp.zeros([N_FEATURES, N_CLASSES], dtype=PARAMS_DTYPE)

fun = make_fun_with_aux(jaxopt.objective.multiclass_logreg, dtype=FUN_DTYPE, has_aux=HAS_AUX)  # scaffolding
solver = jaxopt.LBFGS(fun=fun, has_aux=HAS_AUX)  # scaffolding
state = solver.init_state(init_params, data=data)  # scaffolding
update = jax.jit(solver.update)  # scaffolding
params = init_params  # scaffolding
calls = 0  # scaffolding
for _ in range(4):  # scaffolding
    params, state = update(params, state, data=data)  # scaffolding
    calls += 1  # scaffolding
_report({"jit(update)"}, calls)  # scaffolding
