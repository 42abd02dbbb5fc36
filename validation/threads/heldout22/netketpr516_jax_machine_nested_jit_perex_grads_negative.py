# source: https://github.com/netket/netket/pull/516
# expect: none
# runtime: COMPILES 1 CALLS 3
# why: before the PR the Jax machine nests jit(forward_scalar) inside jit(grad(...)) inside jit(vmap(...)); on jax 0.10.2 the inner jits are inlined when the outer one traces, so three same-shape per-example-gradient calls compile once.
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


import numpy as _np
import jax
import jax.numpy as jnp
from jax.tree_util import tree_flatten, tree_unflatten, tree_map

jax.config.update("jax_enable_x64", True)  # scaffolding: netket enables x64


class AbstractMachine:  # scaffolding: netket.machine.AbstractMachine
    def __init__(self, hilbert, dtype=complex, outdtype=None):  # scaffolding
        self._dtype = dtype  # scaffolding
        self._outdtype = dtype if outdtype is None else outdtype  # scaffolding


class Jax(AbstractMachine):  # netket/machine/jax.py, __init__ cut after the R->R branch
    def __init__(self, hilbert, module, dtype=complex, outdtype=None):
        """
        Wraps a stax network (which is a tuple of `init_fn` and `predict_fn`)
        so that it can be used as a NetKet machine.

        Args:
            hilbert: Hilbert space on which the state is defined. Should be a
                subclass of `netket.hilbert.Hilbert`.
            module: A pair `(init_fn, predict_fn)`. See the documentation of
                jax.experimental.stax` for more info.
            dtype: either complex or float, is the type used for the weights.
                In both cases the network must have a single output.
        """
        super().__init__(hilbert=hilbert, dtype=dtype, outdtype=outdtype)

        self._npdtype = _np.complex128 if dtype is complex else _np.float64

        self._init_fn, self._forward_fn = module

        self._forward_fn_nj = self._forward_fn

        # Computes the Jacobian matrix using forward ad
        self._forward_fn = jax.jit(self._forward_fn)

        forward_scalar = jax.jit(
            lambda pars, x: self._forward_fn_nj(pars, jnp.expand_dims(x, 0)).reshape(())
        )

        # C-> C
        if self._dtype is complex and self._outdtype is complex:

            grad_fun = jax.jit(jax.grad(forward_scalar, holomorphic=True))
            self._perex_grads = jax.jit(jax.vmap(grad_fun, in_axes=(None, 0)))

            def _vjp_fun(pars, v, vec, conjugate, forward_fun):
                vals, f_jvp = jax.vjp(forward_fun, pars, v.reshape((-1, v.shape[-1])))

                out = f_jvp(vec.reshape(vals.shape).conjugate())[0]

                if conjugate:
                    out = tree_map(jax.numpy.conjugate, out)

                return out

            self._vjp_fun = jax.jit(_vjp_fun, static_argnums=(3, 4))

        # R->R
        elif self._dtype is float and self._outdtype is float:

            grad_fun = jax.jit(jax.grad(forward_scalar))
            self._perex_grads = jax.jit(jax.vmap(grad_fun, in_axes=(None, 0)))

            def _vjp_fun(pars, v, vec, conjugate, forward_fun):
                vals, f_jvp = jax.vjp(forward_fun, pars, v.reshape((-1, v.shape[-1])))

                out_r = f_jvp(vec.reshape(vals.shape).real)[0]
                out_i = f_jvp(-vec.reshape(vals.shape).imag)[0]

                r_flat, tree_fun = tree_flatten(out_r)
                i_flat, _ = tree_flatten(out_i)

                if conjugate:
                    out_flat = [re - 1j * im for re, im in zip(r_flat, i_flat)]
                else:
                    out_flat = [re + 1j * im for re, im in zip(r_flat, i_flat)]

                return tree_unflatten(tree_fun, out_flat)

            self._vjp_fun = jax.jit(_vjp_fun, static_argnums=(3, 4))


def _rbm_init(rng, input_shape):  # scaffolding: a one-layer real RBM in stax (init_fn, apply_fn) form
    return (-1,), (0.01 * jnp.ones((input_shape[-1], 8)), jnp.zeros(8))  # scaffolding


def _rbm_apply(pars, x):  # scaffolding
    W, b = pars  # scaffolding
    return jnp.sum(jnp.log(jnp.cosh(x @ W + b)), axis=-1)  # scaffolding


machine = Jax(None, (_rbm_init, _rbm_apply), dtype=float)  # scaffolding
_, pars = _rbm_init(None, (1, 6))  # scaffolding
for k in range(3):  # scaffolding: per-sample gradients for three batches of the same shape
    samples = jnp.asarray(_np.random.default_rng(k).choice([-1.0, 1.0], size=(16, 6)))  # scaffolding
    machine._perex_grads(pars, samples)  # scaffolding
_report({"jit(<lambda>)"}, 3)  # scaffolding
