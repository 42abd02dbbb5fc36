# source: https://github.com/netket/netket/pull/1431
# expect: none
# runtime: COMPILES 1 CALLS 2
# why: after the PR the jitted choose_jacobian_mode returns a JacobianMode whose name is a static (non-pytree) field, so the mode is known at trace time and the outer jitted step compiles once for 2 calls.
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



# netket/optimizer/qgt/qgt_jacobian_common.py (the Jacobian-mode selection)
from functools import partial
import warnings
from textwrap import dedent

import jax
import jax.numpy as jnp

# import netket.jax as nkjax  # scaffolding: netket is not installed; stand-ins below
# from netket.utils import mpi, struct, warn_deprecation
from flax import struct  # scaffolding: flax.struct has the same dataclass/field(pytree_node=False) API as netket.utils.struct


class nkjax:  # scaffolding: stand-ins for the two netket.jax tree helpers used here
    @staticmethod
    def tree_leaf_iscomplex(pars):  # scaffolding
        return any(jnp.iscomplexobj(x) for x in jax.tree_util.tree_leaves(pars))  # scaffolding

    @staticmethod
    def tree_ishomogeneous(pars):  # scaffolding
        kinds = {jnp.iscomplexobj(x) for x in jax.tree_util.tree_leaves(pars)}  # scaffolding
        return len(kinds) <= 1  # scaffolding



@struct.dataclass
class JacobianMode:
    """
    Jax-compatible string type, used to return static information from a jax-jitted
    function.
    """

    name: str = struct.field(pytree_node=False)

    def __str__(self):
        return self.name

    def __repr__(self):
        return f"JacobianMode({self.name})"

    def __hash__(self):
        return hash(self.name)

    def __eq__(self, o):
        if isinstance(o, JacobianMode):
            o = o.name
        return self.name == o


RealMode = JacobianMode("real")
ComplexMode = JacobianMode("complex")
HolomorphicMode = JacobianMode("holomorphic")


@partial(jax.jit, static_argnames=("apply_fun", "holomorphic"))
def choose_jacobian_mode(
    apply_fun, pars, model_state, samples, *, holomorphic
) -> JacobianMode:
    """
    Select an implementation of Jacobian. Returns a Jax-compatible
    (static) string type between

    "real", "complex", "holomorphic"
    """
    homogeneous_vars = nkjax.tree_ishomogeneous(pars)
    leaf_iscomplex = nkjax.tree_leaf_iscomplex(pars)

    if holomorphic is True:
        if homogeneous_vars and leaf_iscomplex:
            ## all complex parameters
            mode = HolomorphicMode
        elif homogeneous_vars and not leaf_iscomplex:
            # all real parameters
            raise ValueError(
                dedent(
                    """
                A function with real parameters cannot be holomorphic.

                Please remove the kw-arg `holomorphic=True`.
                """
                )
            )
        else:
            # mixed complex and real parameters
            warnings.warn(
                dedent(
                    """The ansatz has non homogeneous variables, which might not behave well with the
                       holomorhic implementation.

                       Use `holomorphic=False` or mode='complex' for more accurate results but
                       lower performance.
                    """
                )
            )
            mode = HolomorphicMode
    else:
        complex_output = jax.numpy.iscomplexobj(
            jax.eval_shape(
                apply_fun,
                {"params": pars, **model_state},
                samples.reshape(-1, samples.shape[-1]),
            )
        )

        if complex_output:
            if leaf_iscomplex:
                if holomorphic is None:
                    warnings.warn(
                        dedent(
                            """
                                Complex-to-Complex model detected. Defaulting to `holomorphic=False` for
                                the implementation of QGTJacobianDense.
                                If your model is holomorphic, specify `holomorphic=True` to use a more
                                performant implementation.
                                To suppress this warning specify `holomorphic`.
                                """
                        ),
                        UserWarning,
                    )
                mode = ComplexMode
            else:
                mode = ComplexMode
        else:
            mode = RealMode
    return mode


def apply_fun(variables, x):  # scaffolding: a small real-valued log-amplitude model
    return jnp.tanh(x @ variables["params"]["w"]).sum(axis=-1)  # scaffolding


@jax.jit  # scaffolding: a jitted step that needs the Jacobian mode while tracing, which the PR sets out to allow
def jacobian_step(pars, samples):  # scaffolding
    mode = choose_jacobian_mode(apply_fun, pars, {}, samples, holomorphic=None)  # scaffolding
    jac = jax.jacrev(lambda p: apply_fun({"params": p}, samples))(pars)  # scaffolding
    return jax.tree_util.tree_map(lambda j: j if mode == "real" else j.real, jac)  # scaffolding


try:  # scaffolding
    pars = {"w": jnp.ones((4, 3)) * 0.1}  # scaffolding
    for i in range(2):  # scaffolding
        samples = jax.random.choice(jax.random.key(i), jnp.array([-1.0, 1.0]), (8, 4))  # scaffolding: spin configurations
        out = jacobian_step(pars, samples)  # scaffolding
    print(out["w"].shape)  # scaffolding
    _report({"jit(jacobian_step)"}, 2)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
