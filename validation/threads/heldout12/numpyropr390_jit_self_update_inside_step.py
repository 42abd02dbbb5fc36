# source: https://github.com/pyro-ppl/numpyro/pull/390
# expect: jit-in-loop-or-body at line 47
# runtime: COMPILES 4 CALLS 4
# why: step() wraps the bound method in a fresh jit(self.update) on every call, so a Pyro-style loop of four step() calls compiles jit(update) four times.

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
import jax  # scaffolding
import jax.numpy as jnp  # scaffolding
from jax import jit
import numpyro  # scaffolding
import numpyro.distributions as dist  # scaffolding
from numpyro.infer import svi


class SVI(svi.SVI):
    def __init__(self, model, guide, optim, loss, **kwargs):  # scaffolding: compat signature trimmed
        super(SVI, self).__init__(model=model, guide=guide, optim=optim, loss=loss)
        self.svi_state = None

    def step(self, *args, **kwargs):
        if self.svi_state is None:
            rng = jax.random.PRNGKey(0)  # scaffolding: rng source not in the stored diff
            self.svi_state = self.init(rng, *args, **kwargs)
        try:
            self.svi_state, loss = jit(self.update)(self.svi_state, *args, **kwargs)
        except TypeError as e:
            if 'not a valid JAX type' in str(e):
                raise TypeError('NumPyro backend requires args, kwargs to be arrays or tuples, '
                                'dicts of arrays.')
            else:
                raise e
        return loss


def model(data):  # scaffolding: minipyro-style toy model
    loc = numpyro.sample("loc", dist.Normal(0., 1.))  # scaffolding
    with numpyro.plate("data", data.shape[0]):  # scaffolding
        numpyro.sample("obs", dist.Normal(loc, 1.), obs=data)  # scaffolding


def guide(data):  # scaffolding
    guide_loc = numpyro.param("guide_loc", 0.)  # scaffolding
    numpyro.sample("loc", dist.Normal(guide_loc, 1.))  # scaffolding


data = jnp.arange(8.)  # scaffolding
svi_obj = SVI(model, guide, numpyro.optim.Adam(0.01), numpyro.infer.Trace_ELBO())  # scaffolding
calls = 0  # scaffolding
for step in range(4):  # scaffolding: Pyro-style training loop calling step()
    loss = svi_obj.step(data)  # scaffolding
    calls += 1  # scaffolding
print(loss)  # scaffolding
_report({"jit(update)"}, calls)  # scaffolding
