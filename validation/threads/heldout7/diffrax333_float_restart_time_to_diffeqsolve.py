# source: https://github.com/patrick-kidger/diffrax/issues/333
# expect: changing-static at line 65
# runtime: COMPILES 3 CALLS 3
# why: The restart loop converts the event time to a Python float and passes it as t0 to diffeqsolve, which eqx.filter_jit treats as a static value, so every restart at a new time recompiles the solve.

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
import diffrax
import jax
import jax.numpy as jnp


# scaffolding: a small ODE, stopping criterion and argument update stand in for the reporter's
def vector_field(t, y, args):
    return -args * y


def my_function(y, args):
    return jnp.sum(y) < 0.5


@jax.jit
def modify_args(y, args):
    return args * 1.1


term = diffrax.ODETerm(vector_field)
solver = diffrax.Tsit5()
stepsize_controller = diffrax.PIDController(rtol=1e-5, atol=1e-5)
t0, t1, dt0 = 0.0, 3.0, 0.1
my_initial_condition = jnp.array([1.0, 1.0])
my_initial_args = jnp.array(1.0)

my_event = diffrax.Event(lambda t, y, args, **kwargs: my_function(y, args))
tcurrent = t0
y0 = my_initial_condition
args = my_initial_args
calls = 0
while tcurrent < t1 and calls < 3:  # scaffolding: at most 3 restarts
    solution = diffrax.diffeqsolve(term, solver, args=args, t0=tcurrent, t1=t1, dt0=dt0, y0=y0,
                                   event=my_event,
                                   stepsize_controller=stepsize_controller, max_steps=4096)
    calls += 1
    tcurrent = float(solution.ts[-1])
    y0 = solution.ys[-1] * 2.0  # scaffolding: restart above the stopping level
    args = modify_args(solution.ys[-1], args)
_report({"jit(diffeqsolve)"}, calls)
