# source: https://github.com/pyro-ppl/numpyro/issues/1886
# expect: none
# runtime: COMPILES 0 CALLS 1
# why: in this numpyro version get_model_relations no longer leaves a traced rng key on the seeded model, so checking_leaks raises nothing; the inspection traces abstractly and compiles nothing
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



import numpyro
import jax
import jax.random as jr
import numpyro.distributions as dist
from numpyro.infer.inspect import get_model_relations
from numpyro import handlers

def model():
    m = numpyro.sample('m', dist.Normal(0, 1))
    numpyro.sample('sd', dist.LogNormal(m, 1))

seeded_model = handlers.seed(model, jr.key(0))

with jax.checking_leaks():
    get_model_relations(seeded_model)  # UnexpectedTracerError, same for get_dependencies

with handlers.trace() as tr:  # scaffolding: run the seeded model again after the inspection
    seeded_model()  # scaffolding
print(tr["m"]["value"], type(seeded_model.rng_key).__name__)  # scaffolding: a concrete key, no leaked tracer
_report({"jit(get_trace)"}, 1)  # scaffolding: get_model_relations traces with eval_shape and compiles nothing
