# source: https://github.com/gdsfactory/klujax/issues/34
# expect: trace-time-error at line 60
# runtime: ERROR ConcretizationTypeError
# why: The model function builds its circuit (sax.circuit with the KLU backend) on every call; when the solver jit-compiles a step that calls the model, klujax.analyze() runs under the trace and its int() on the analysis result raises ConcretizationTypeError.

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
import equinox as eqx
import jax
import jax.numpy as jnp


# scaffolding: klujax and sax are not installed; these stand-ins keep the structure the issue
# describes: sax.circuit(..., backend="klu") runs klujax.analyze(), which calls int() on the
# result of the analysis (a symbolic-factorisation handle).
def analyze(Ai, Aj, n):
    raw_symbol = jnp.sum(Ai * n + Aj)  # stands in for analyze_p.bind(Ai, Aj, n_col=n)
    return int(raw_symbol)


def circuit(netlist, models, backend="klu"):
    n = len(netlist)
    Ai = jnp.arange(n)
    Aj = (jnp.arange(n) + 1) % n
    symbol = analyze(Ai, Aj, n)

    def circuit_fn(wl=1.55):
        Ax = jnp.stack([models[name](wl) for name in netlist])
        return jnp.zeros((n, n)).at[Ai, Aj].set(Ax).sum(0)

    return circuit_fn, symbol


netlist = ["wg", "dc", "wg"]
models = {"wg": lambda wl: jnp.exp(-1j * 2 * jnp.pi / wl).real, "dc": lambda wl: 0.5 * wl}


def coupler_ring(wl=1.55, **kwargs):
    circuit_fn, _ = circuit(netlist, models, backend="klu")
    return circuit_fn(wl=wl)


# scaffolding: circulax JIT-compiles its Newton solver step, which traces the physics function
@eqx.filter_jit
def newton_step(wl):
    return coupler_ring(wl=wl)


try:
    out = newton_step(jnp.asarray(1.55))
    _report({"jit(newton_step)"}, 1)
except Exception as e:
    print(f"ERROR {type(e).__name__}")
