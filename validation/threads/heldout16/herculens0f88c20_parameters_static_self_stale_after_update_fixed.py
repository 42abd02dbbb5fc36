# source: https://github.com/Herculens/herculens/commit/0f88c200a1c9f2044c0e3ee3f6707ac339582708
# expect: stale-closure at line 74
# runtime: COMPILES 4 CALLS 5
# why: kwargs2args and args2kwargs are jitted with self static (hashed by identity), but update_fixed changes self._kwargs_fixed, so a later kwargs2args call with the same input signature reuses the old trace and returns 3 free parameters where the updated object has 1 (silently stale).

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


from copy import deepcopy
import numpy as np
import jax.numpy as jnp
from jax import lax, jit
from functools import partial


SIE_PARAM_NAMES = ['theta_E', 'e1', 'e2', 'center_x', 'center_y']  # scaffolding: herculens SIE.param_names


# herculens/Parameters/parameters.py (before the commit). Scaffolding: the class cut to one lens-mass
# model list (no source/lens-light lists, joint rules, priors or pixelated/shapelet branches); the methods
# kwargs2args/args2kwargs (with their jit decorators), update_fixed, _update_arrays, _get_params and
# _set_params keep their logic for that case.
class Parameters(object):
    def __init__(self, kwargs_model, kwargs_init, kwargs_fixed):
        self._kwargs_model = kwargs_model
        self._kwargs_init = kwargs_init
        self._kwargs_fixed = kwargs_fixed
        self._update_arrays()

    @property
    def num_parameters(self):
        return self._num_params

    @property
    def kwargs_model(self):
        return self._kwargs_model

    def initial_values(self, as_kwargs=False, copy=False):
        return self._kwargs_init if as_kwargs else self._init_values

    def update_fixed(self, kwargs_fixed):
        # update fixed settings and everything that depends on it
        self._kwargs_fixed.update(kwargs_fixed)
        self._update_arrays()

    @partial(jit, static_argnums=(0,))
    def args2kwargs(self, args):
        i = 0
        args = jnp.atleast_1d(args)
        kwargs_lens, i = self._get_params(args, i, 'mass_model_list', 'kwargs_lens')
        # wrap-up
        kwargs = {'kwargs_lens': kwargs_lens}
        return kwargs

    @partial(jit, static_argnums=(0,))
    def kwargs2args(self, kwargs):
        args = self._set_params(kwargs, 'mass_model_list', 'kwargs_lens')
        return jnp.array(args)

    @staticmethod
    def get_param_names_for_model(kwargs_key, model):
        return SIE_PARAM_NAMES  # scaffolding

    def _update_arrays(self):
        self._init_values = self.kwargs2args(self._kwargs_init)
        self._kwargs_init = self.args2kwargs(self._init_values)  # for updating missing fields
        self._num_params = len(self._init_values)

    def _get_params(self, args, i, kwargs_model_key, kwargs_key):
        kwargs_list = []
        for k, model in enumerate(self.kwargs_model[kwargs_model_key]):
            kwargs = {}
            kwargs_fixed_k = self._kwargs_fixed[kwargs_key][k]
            param_names = self.get_param_names_for_model(kwargs_key, model)
            for name in param_names:
                if not name in kwargs_fixed_k:
                    num_param = 1
                    kwargs[name] = args[i]
                    i += num_param
                else:
                    kwargs[name] = kwargs_fixed_k[name]
            kwargs_list.append(kwargs)
        return kwargs_list, i

    def _set_params(self, kwargs, kwargs_model_key, kwargs_key):
        args = []
        for k, model in enumerate(self.kwargs_model[kwargs_model_key]):
            kwargs_profile = kwargs[kwargs_key][k]
            kwargs_fixed_k = self._kwargs_fixed[kwargs_key][k]
            param_names = self.get_param_names_for_model(kwargs_key, model)
            for name in param_names:
                if not name in kwargs_fixed_k:
                    args.append(kwargs_profile[name])
        return args


# scaffolding: fit the SIE with only its centre fixed, then fix the ellipticity too (a staged fit)
kwargs_init = {'kwargs_lens': [{'theta_E': 1.1, 'e1': 0.05, 'e2': -0.02, 'center_x': 0.0, 'center_y': 0.0}]}
kwargs_fixed = {'kwargs_lens': [{'center_x': 0.0, 'center_y': 0.0}]}
parameters = Parameters({'mass_model_list': ['SIE']}, deepcopy(kwargs_init), kwargs_fixed)
print("free parameters before:", parameters.num_parameters)
parameters.update_fixed({'kwargs_lens': [{'center_x': 0.0, 'center_y': 0.0, 'e1': 0.0, 'e2': 0.0}]})
print("free parameters after fixing e1, e2 (expected 1):", parameters.num_parameters)
args = parameters.kwargs2args(kwargs_init)  # the initial kwargs as the user wrote them, converted again for the next stage
print("length of kwargs2args(kwargs_init) after the update (expected 1):", len(args))
_report({"jit(kwargs2args)", "jit(args2kwargs)"}, 5)
