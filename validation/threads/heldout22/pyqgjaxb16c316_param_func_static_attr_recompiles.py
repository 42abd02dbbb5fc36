# source: https://github.com/karlotness/pyqg-jax/commit/b16c3165e5903a2dc4a63aeba7668904c2438597
# expect: changing-static at line 69
# runtime: COMPILES 4 CALLS 4
# why: ParameterizedModel keeps param_func (a fresh tree_util.Partial per apply_parameterization) in the static aux data, so every wrapped model is a new static key and the jitted step recompiles for each Smagorinsky constant.
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
import itertools

import jax
import jax.numpy as jnp


def register_pytree_class_attrs(children, static_attrs):  # scaffolding: pyqg_jax._utils, without the MRO merge
    cls_children = tuple(children)
    cls_static = tuple(static_attrs)

    def do_registration(cls):
        def flatten(obj):
            aux = tuple(getattr(obj, name) for name in cls_static) if cls_static else None
            return [getattr(obj, name) for name in cls_children], aux

        def unflatten(aux_data, children):
            obj = cls.__new__(cls)
            if aux_data is None:
                aux_data = ()
            for name, val in itertools.chain(
                zip(cls_children, children),
                zip(cls_static, aux_data),
            ):
                setattr(obj, name, val)
            return obj

        jax.tree_util.register_pytree_node(cls, flatten, unflatten)
        return cls

    return do_registration


@register_pytree_class_attrs(children=["dx"], static_attrs=[])  # scaffolding: stand-in for QGModel
class QGModel:
    def __init__(self, dx):
        self.dx = dx


def _init_none(init_state, model):
    return None


@register_pytree_class_attrs(
    children=["model"],
    static_attrs=["param_func", "init_param_aux_func"],
)
class ParameterizedModel:
    def __init__(self, model, param_func, init_param_aux_func=None):
        self.model = model
        self.param_func = param_func
        if init_param_aux_func is None:
            self.init_param_aux_func = _init_none
        else:
            self.init_param_aux_func = init_param_aux_func

    def get_updates(self, state):
        param_updates, new_param_aux = self.param_func(
            state, None, self.model  # scaffolding: no ParameterizedModelState / param_aux wrapper
        )
        return param_updates


def param_func(state, param_aux, model, *, constant=0.1):  # scaffolding: the Smagorinsky closure cut to its scaling
    nu = (constant * model.dx) ** 2 * jnp.sqrt(2 * state**2)
    return -nu * state, None


def init_param_aux_func(state, model):
    return None


def apply_parameterization(model, *, constant=0.1):
    return ParameterizedModel(
        model=model,
        param_func=jax.tree_util.Partial(param_func, constant=constant),
        init_param_aux_func=init_param_aux_func,
    )


@jax.jit  # scaffolding: the user's jitted stepping function taking the wrapped model as an argument
def step(model, state):
    return state + 0.01 * model.get_updates(state)


state = jnp.ones((2, 16, 16))  # scaffolding
base = QGModel(dx=1.0)  # scaffolding
for constant in [0.08, 0.1, 0.12, 0.14]:  # scaffolding: a sweep over Smagorinsky constants
    model = apply_parameterization(base, constant=constant)
    out = step(model, state)
_report({"jit(step)"}, 4)  # scaffolding
