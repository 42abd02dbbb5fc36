# source: https://github.com/pyro-ppl/numpyro/issues/2062
# expect: trace-time-error at line 42
# runtime: ERROR UnexpectedTracerError
# why: get_model_relations traces the AutoNormal guide under jit, which stores traced init locations on the guide; the later SVI run reuses them and raises UnexpectedTracerError
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
import numpyro
import numpyro.distributions as dist
from numpyro.infer import SVI, Trace_ELBO
from numpyro.infer.autoguide import AutoNormal
from numpyro.infer.inspect import get_model_relations


def model():  # scaffolding: the reporter's model is not in the stored thread; one latent site 'a' as in the leaked-tracer chain (AutoNormal._init_locs['a'])
    a = numpyro.sample("a", dist.Normal(0.0, 1.0))  # scaffolding
    numpyro.sample("obs", dist.Normal(a, 1.0), obs=1.0)  # scaffolding


guide = AutoNormal(model)
relations = get_model_relations(guide)
print(relations)  # scaffolding

svi = SVI(model, guide, numpyro.optim.Adam(0.01), Trace_ELBO())  # scaffolding: "tracing guide after passing it to get_model_relations"
try:  # scaffolding
    svi_result = svi.run(jax.random.PRNGKey(0), 10, progress_bar=False)  # scaffolding
    _report({"jit(body_fn)"}, 1)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
