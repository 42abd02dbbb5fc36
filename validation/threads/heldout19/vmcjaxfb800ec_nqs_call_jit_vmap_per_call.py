# source: https://github.com/markusschmitt/vmc_jax/commit/fb800ec6d59af7ee655b9fc95882669fbe6ad141
# expect: jit-in-loop-or-body at line 60
# runtime: COMPILES 3 CALLS 3
# why: NQS.__call__ builds jit(vmap(self._eval)) on every evaluation, so each of the 3 calls makes a new jitted function that traces and compiles again.
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
from jax import jit, vmap, grad


@jax.tree_util.register_pytree_node_class
class RBM:  # scaffolding: stands in for a flax.nn.Model (a pytree with a __call__)
    def __init__(self, W, b):
        self.W, self.b = W, b

    def __call__(self, s):
        return jnp.sum(jnp.log(jnp.cosh(self.W @ s + self.b)))

    def tree_flatten(self):
        return (self.W, self.b), None

    @classmethod
    def tree_unflatten(cls, aux, children):
        return cls(*children)


class NQS:
    def __init__(self, logModNet, phaseNet=None):
        # The net arguments have to be instances of flax.nn.Model
        self.realNets = False  # scaffolding: a single network
        self.net = logModNet
    # **  end def __init__

    def __call__(self, s):
        if self.realNets:
            logMod = jit(vmap(self._eval,in_axes=(None,0)))(self.net[0],s)
            phase = jit(vmap(self._eval,in_axes=(None,0)))(self.net[1],s)
            return logMod + 1.j * phase
        else:
            return jit(vmap(self._eval,in_axes=(None,0)))(self.net,s)
    # **  end def __call__

    def _eval_real(self, net, s):
        return jnp.real(net(s))

    def _eval(self, net, s):
        return net(s)


psi = NQS(RBM(jnp.ones((3, 4)) * 0.1, jnp.zeros(3)))  # scaffolding
for step in range(3):  # scaffolding: three evaluations on new configurations
    s = jax.random.bernoulli(jax.random.PRNGKey(step), 0.5, (16, 4)).astype(jnp.float32)
    coeffs = psi(s)
_report({"jit(_eval)"}, 3)  # scaffolding
