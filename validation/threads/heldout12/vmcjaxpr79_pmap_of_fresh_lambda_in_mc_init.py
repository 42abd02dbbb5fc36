# source: https://github.com/markusschmitt/vmc_jax/pull/79
# expect: jit-in-loop-or-body at line 58
# runtime: COMPILES 3 CALLS 3
# why: MCSampler._mc_init, which runs on every sample() call, wraps a freshly created lambda in pmap each time, so the pmapped log-acceptance function is retraced and recompiled on every call instead of once.

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
import jax
import jax.numpy as jnp


class global_defs:  # scaffolding: stand-in for jVMC.global_defs
    @staticmethod
    def pmap_for_my_devices(f, **kwargs):
        return jax.pmap(f, **kwargs)

    @staticmethod
    def device_count():
        return 1


class _Net:  # scaffolding: stand-in for jVMC's NQS wrapper
    def get_sampler_net(self):
        return (lambda params, y: jnp.sum(y * params)), None


class MCSampler:
    def __init__(self, net, states, mu=2):  # scaffolding: cut-down constructor
        self.net = net
        self.states = states
        self.mu = mu

    def _mc_init(self, netParams):

        # Initialize logAccProb
        net, _ = self.net.get_sampler_net()
        self.logAccProb = global_defs.pmap_for_my_devices(
            lambda x: jax.vmap(lambda y: self.mu * jnp.real(net(netParams, y)), in_axes=(0,))(x)
        )(self.states)

        shape = (global_defs.device_count(),) + (1,)
        return shape  # scaffolding: the method goes on to set up the MC chains


sampler = MCSampler(_Net(), jnp.ones((1, 4, 3)))  # scaffolding
for step in range(3):  # scaffolding: one _mc_init per sample() call
    sampler._mc_init(jnp.full((3,), 0.1 * step))
print([n for n in _COMPILED if n == "jit(_fun)"])  # scaffolding
_report({"jit(_fun)"}, 3)  # scaffolding: jax 0.10 reports the pmap compile as jit(_fun)
