# source: https://github.com/markusschmitt/vmc_jax/commit/2b9ae00350458b907323bbb460850010776e60e5
# expect: unhashable-static at line 34
# runtime: ERROR ValueError
# why: TwoNets keeps its two networks in a list attribute, so the flax module cannot be hashed; NQS passes the net as a static_broadcasted_argnums argument of its pmap-ed _eval, which raises ValueError (non-hashable static argument).
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
import flax.linen as nn

from typing import Sequence


class TwoNets(nn.Module):
    net: Sequence[callable]

    def __call__(self, s):
        return self.net[0](s) + 1j * self.net[1](s)

    def sample(self, *args):
        # Will produce exact samples if net[0] contains a sample function.
        # Won't be called if net[0] does not have a sample method.
        return self.net[0].sample(*args)

    def eval_real(self, s):
        return self.net[0](s)


def create_batches(configs, b):

    append = b * ((configs.shape[0] + b - 1) // b) - configs.shape[0]
    pads = [(0, append), ] + [(0, 0)] * (len(configs.shape) - 1)

    return jnp.pad(configs, pads).reshape((-1, b) + configs.shape[1:])


def pmap_for_my_devices(*args, **kwargs):  # scaffolding: jVMC.global_defs wrapper around jax.pmap
    return jax.pmap(*args, **kwargs)


class NQS:  # scaffolding: the evaluation part of jVMC.vqs.NQS
    def __init__(self, net, batchSize=1000, seed=1234):
        self.net = net
        self.batchSize = batchSize
        self.parameters = net.init(jax.random.PRNGKey(seed), jnp.zeros((4,)))
        # Need to keep handles of jit'd functions to avoid recompilation
        self._eval_net_pmapd = pmap_for_my_devices(self._eval, in_axes=(None, None, 0, None), static_broadcasted_argnums=(0, 3))

    def __call__(self, s):
        return self._eval_net_pmapd(self.net, self.parameters, s, self.batchSize)

    def _eval(self, net, params, s, batchSize):

        sb = create_batches(s, batchSize)

        def scan_fun(c, x):
            return c, jax.vmap(lambda y: net.apply(params, y), in_axes=(0,))(x)

        res = jax.lax.scan(scan_fun, None, jnp.array(sb))[1].reshape((-1,))

        return res[:s.shape[0]]


class RBM(nn.Module):  # scaffolding: a small real network for amplitude and phase
    @nn.compact
    def __call__(self, s):
        return jnp.sum(jnp.log(jnp.cosh(nn.Dense(3)(s))))


model1, model2 = RBM(), RBM()  # scaffolding
model = TwoNets([model1, model2])  # from jVMC.util.init_net before the commit
psi = NQS(model, batchSize=8)  # scaffolding
try:  # scaffolding
    for i in range(3):  # scaffolding: 3 evaluations on 16 spin configurations (1 device)
        s = jax.random.bernoulli(jax.random.PRNGKey(i), 0.5, (1, 16, 4)).astype(jnp.float32)
        coeffs = psi(s)
    _report({"jit(_fun)"}, 3)  # scaffolding: pmap compiles under the name jit(_fun) on jax 0.10.2
except Exception as err:  # scaffolding
    print(f"ERROR {type(err).__name__}")  # scaffolding
