# source: https://github.com/scverse/scvi-tools/pull/1909
# expect: none
# runtime: COMPILES 1 CALLS 3
# why: the PR replaces the per-call jax.jit of a lambda with random.PRNGKey followed by jax.device_put to the CPU, so building three modules runs the key function eagerly and reuses JAX's one cached compile of the seed primitive.
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


from typing import Callable

import jax
from jax import random


# scvi/utils/_jax.py after PR #1909 (44d5b1461)
def device_selecting_PRNGKey(use_cpu: bool = True) -> Callable:
    """Returns a PRNGKey that is either on CPU or GPU."""
    # if key is generated on CPU, model params will be on CPU
    if use_cpu is True:
        key = lambda i: jax.device_put(random.PRNGKey(i), jax.devices("cpu")[0])
    else:
        # dummy function
        def key(i: int):
            return random.PRNGKey(i)

    return key


class settings:  # scaffolding: scvi.settings
    seed = 0  # scaffolding


class JaxBaseModuleClass:  # scaffolding: the flax Module base reduced to configure(), which scvi's @flax_configure runs for every new module
    def __init__(self):  # scaffolding
        self.configure()  # scaffolding

    # scvi/module/base/_base_module.py (44d5b1461)
    def configure(self) -> None:
        """Add necessary attrs."""
        self.training = None
        self.train_state = None
        self.seed = settings.seed
        self.seed_rng = device_selecting_PRNGKey()(self.seed)
        self._set_rngs()

    def _set_rngs(self):  # scaffolding
        self.rngs = {"params": self.seed_rng}  # scaffolding


modules = [JaxBaseModuleClass() for _ in range(3)]  # scaffolding: three JaxSCVI modules built in one session (e.g. one per model fit)
_report({"jit(<lambda>)", "jit(_threefry_seed)"}, 3)  # scaffolding
