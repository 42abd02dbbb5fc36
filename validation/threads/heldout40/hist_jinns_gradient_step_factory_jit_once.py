# source: https://github.com/mia-jinns/jinns/blob/a2f7c7e66c8ee4bd896bc77f37ba2640a8453d1b/jinns/solver/_solve.py
# expect: none
# runtime: COMPILES 1 CALLS 8
# why: get_gradient_step_for_loss defines an @jit gradient_step inside a function body, but solve calls the factory once and reuses the returned function for every iteration, so it compiles once.

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
# jinns/solver/_solve.py of mia-jinns/jinns at aeb23eb^ (solve, gradient_step, print_fn, store_loss_and_params, get_get_batch; docstrings trimmed)
from typing import NamedTuple, Union
import optax
from tqdm import tqdm
from jax.typing import ArrayLike
import jax
from jax import jit
import jax.numpy as jnp
from functools import partial

def scan_tqdm(n):  # scaffolding: jax_tqdm is not installed
    return lambda f: f  # scaffolding

# --- scaffolding: cut-down jinns pieces (DataGeneratorODE, LossODE.evaluate, RAR/seq2seq/utils) ---
from functools import reduce  # scaffolding
from operator import getitem  # scaffolding
from typing import NamedTuple  # scaffolding
from jax.tree_util import register_pytree_node_class  # scaffolding


class ODEBatch(NamedTuple):  # scaffolding
    temporal_batch: jnp.ndarray  # scaffolding
    param_batch_dict: dict = None  # scaffolding
    obs_batch_dict: dict = None  # scaffolding


@register_pytree_node_class  # scaffolding
class DataGeneratorODE:  # scaffolding: uniform time sampling on [0, 1], no RAR
    def __init__(self, key, temporal_batch_size=16, method="uniform", rar_parameters=None):  # scaffolding
        self._key, self.temporal_batch_size, self.method, self.rar_parameters = key, temporal_batch_size, method, rar_parameters  # scaffolding

    def get_batch(self):  # scaffolding
        self._key, subkey = jax.random.split(self._key)  # scaffolding
        return ODEBatch(jax.random.uniform(subkey, (self.temporal_batch_size,)))  # scaffolding

    def tree_flatten(self):  # scaffolding
        return (self._key,), {"temporal_batch_size": self.temporal_batch_size, "method": self.method, "rar_parameters": self.rar_parameters}  # scaffolding

    @classmethod  # scaffolding
    def tree_unflatten(cls, aux_data, children):  # scaffolding
        return cls(children[0], **aux_data)  # scaffolding


CubicMeshPDEStatio = CubicMeshPDENonStatio = type("CubicMeshPDE", (), {})  # scaffolding
DataGeneratorParameter = DataGeneratorObservations = DataGeneratorObservationsMultiPINNs = type("DataGenerator", (), {})  # scaffolding


def init_rar(data):  # scaffolding: RAR not used
    return data, None, None  # scaffolding


def initialize_seq2seq(loss, data, seq2seq, opt_state):  # scaffolding: seq2seq not used
    return data, opt_state  # scaffolding


def _tracked_parameters(params, tracked_params_key_list):  # scaffolding: every parameter tracked (None leaves break the tree_map on jax 0.10.2)
    return jax.tree_util.tree_map(lambda x: True, params)  # scaffolding


def append_obs_batch(batch, obs_batch):  # scaffolding
    return batch._replace(obs_batch_dict=obs_batch)  # scaffolding


append_param_batch = append_obs_batch  # scaffolding


def _check_nan_in_pytree(pytree):
    return jnp.any(
        jnp.array(
            list(
                jax.tree_util.tree_leaves(
                    jax.tree_util.tree_map(lambda x: jnp.any(jnp.isnan(x)), pytree)
                )
            )
        )
    )


@partial(jax.jit, static_argnames=["_rar_step_true", "_rar_step_false"])
def trigger_rar(i, loss, params, data, _rar_step_true, _rar_step_false):

    if data.rar_parameters is None:
        # do nothing.
        return loss, params, data
    else:  # scaffolding: the RAR update is cut
        raise NotImplementedError  # scaffolding


@jit
def trigger_seq2seq(
    i,
    loss,
    params,
    data,
    opt_state,
    curr_seq,
    seq2seq,
):
    if seq2seq is not None:  # scaffolding: the seq2seq interval update is cut
        raise NotImplementedError  # scaffolding
    else:
        # Do nothing if no seq2seq
        curr_seq = -1

    return loss, params, data, opt_state, curr_seq, seq2seq


# jinns/loss/_LossODE.py (constructor arguments trimmed, evaluate cut to the dynamic and initial-condition terms)
@register_pytree_node_class
class LossODE:
    def __init__(self, u, loss_weights, dynamic_loss, derivative_keys=None, initial_condition=None, obs_slice=None):  # scaffolding: trimmed
        self.dynamic_loss = dynamic_loss
        self.u = u
        self.derivative_keys = derivative_keys
        self.initial_condition = initial_condition
        self.loss_weights = loss_weights
        self.obs_slice = obs_slice
        if self.obs_slice is None:
            self.obs_slice = jnp.s_[...]

    def __call__(self, *args, **kwargs):
        return self.evaluate(*args, **kwargs)

    def evaluate(self, params, batch):  # scaffolding: dynamic_loss_apply and helpers inlined
        t = batch.temporal_batch  # scaffolding
        res = jax.vmap(lambda t_: self.dynamic_loss(t_, self.u, params))(t)  # scaffolding
        mse_dyn_loss = jnp.mean(self.loss_weights["dyn_loss"] * res ** 2)  # scaffolding
        t0, u0 = self.initial_condition  # scaffolding
        mse_initial_condition = jnp.mean(self.loss_weights["initial_condition"] * (self.u(jnp.array(t0), params) - u0) ** 2)  # scaffolding
        total_loss = mse_dyn_loss + mse_initial_condition  # scaffolding
        return total_loss, {"dyn_loss": mse_dyn_loss, "initial_condition": mse_initial_condition}  # scaffolding

    def tree_flatten(self):
        children = (self.initial_condition, self.loss_weights)
        aux_data = {
            "u": self.u,
            "dynamic_loss": self.dynamic_loss,
            "obs_slice": self.obs_slice,
        }
        return (children, aux_data)

    @classmethod
    def tree_unflatten(cls, aux_data, children):
        (initial_condition, loss_weights) = children
        loss_ode = cls(
            loss_weights=loss_weights,
            initial_condition=initial_condition,
            **aux_data,
        )
        return loss_ode
# --- end scaffolding ---


def solve(
    n_iter,
    init_params,
    data,
    loss,
    optimizer,
    print_loss_every=1000,
    opt_state=None,
    seq2seq=None,
    tracked_params_key_list=None,
    param_data=None,
    obs_data=None,
    obs_batch_sharding=None,
):
    params = init_params
    last_non_nan_params = init_params.copy()

    if param_data is not None:
        if (
            (
                isinstance(data, DataGeneratorODE)
                and param_data.param_batch_size != data.temporal_batch_size
                and obs_data.obs_batch_size != data.temporal_batch_size
            )
            or (
                isinstance(data, CubicMeshPDEStatio)
                and not isinstance(data, CubicMeshPDENonStatio)
                and param_data.param_batch_size != data.omega_batch_size
                and obs_data.obs_batch_size != data.omega_batch_size
            )
            or (
                isinstance(data, CubicMeshPDENonStatio)
                and param_data.param_batch_size
                != data.omega_batch_size * data.temporal_batch_size
                and obs_data.obs_batch_size
                != data.omega_batch_size * data.temporal_batch_size
            )
        ):
            raise ValueError(
                "Optional param_data.param_batch_size must be"
                " equal to data.temporal_batch_size or data.omega_batch_size or"
                " the product of both dependeing on the type of the main"
                " datagenerator"
            )

    if opt_state is None:
        opt_state = optimizer.init(params)

    # RAR sampling init (ouside scanned function to avoid dynamic slice error)
    # If RAR is not used the _rar_step_*() are juste None and data is unchanged
    data, _rar_step_true, _rar_step_false = init_rar(data)

    # Seq2seq
    curr_seq = 0
    if seq2seq is not None:
        assert (
            data.method == "uniform"
        ), "data.method must be uniform if using seq2seq learning !"
        data, opt_state = initialize_seq2seq(loss, data, seq2seq, opt_state)

    # Init gradient step according to optimizer
    gradient_step = get_gradient_step_for_loss(optimizer, loss)
    total_loss_values = jnp.zeros((n_iter))
    # depending on obs_batch_sharding we will get the simple get_batch or the
    # get_batch with device_put, the latter is not jittable
    get_batch = get_get_batch(obs_batch_sharding)

    # initialize the dict for stored parameter values
    # we need to get a loss_term to init stuff
    batch_ini, data, param_data, obs_data = get_batch(data, param_data, obs_data)
    _, loss_terms = loss(params, batch_ini)
    if tracked_params_key_list is None:
        tracked_params_key_list = []
    tracked_params = _tracked_parameters(params, tracked_params_key_list)
    stored_params = jax.tree_util.tree_map(
        lambda tracked_param, param: (
            jnp.zeros((n_iter,) + param.shape) if tracked_param else None
        ),
        tracked_params,
        params,
    )

    # initialize the dict for stored loss values
    stored_loss_terms = jax.tree_util.tree_map(
        lambda x: jnp.zeros((n_iter)), loss_terms
    )

    carry = (
        init_params,
        init_params.copy(),
        data,
        curr_seq,
        seq2seq,
        stored_params,
        stored_loss_terms,
        loss,
        param_data,
        obs_data,
        opt_state,
        total_loss_values,
    )

    def one_iteration(carry, i):
        (
            params,
            last_non_nan_params,
            data,
            curr_seq,
            seq2seq,
            stored_params,
            stored_loss_terms,
            loss,
            param_data,
            obs_data,
            opt_state,
            total_loss_values,
        ) = carry
        batch, data, param_data, obs_data = get_batch(data, param_data, obs_data)

        (
            loss_val,
            loss_terms,
            params,
            opt_state,
            last_non_nan_params,
        ) = gradient_step(batch, params, opt_state, last_non_nan_params)

        # Print loss during optimization
        print_fn(i, loss_val, print_loss_every)

        # Trigger RAR
        loss, params, data = trigger_rar(
            i, loss, params, data, _rar_step_true, _rar_step_false
        )

        # Trigger seq2seq
        loss, params, data, opt_state, curr_seq, seq2seq = trigger_seq2seq(
            i, loss, params, data, opt_state, curr_seq, seq2seq
        )

        # save loss value and selected parameters
        stored_params, stored_loss_terms, total_loss_values = store_loss_and_params(
            i,
            params,
            stored_params,
            stored_loss_terms,
            total_loss_values,
            loss_val,
            loss_terms,
            tracked_params,
        )
        return (
            params,
            last_non_nan_params,
            data,
            curr_seq,
            seq2seq,
            stored_params,
            stored_loss_terms,
            loss,
            param_data,
            obs_data,
            opt_state,
            total_loss_values,
        ), None

    # Main optimization loop. We use the fully scanned (fully jitted) version
    # if no mixing devices. Otherwise we use the for loop. Here devices only
    # concern obs_batch, but it could lead to more complex scheme in the future
    if obs_batch_sharding is not None:
        for i in tqdm(range(n_iter)):
            carry, _ = one_iteration(carry, i)
    else:
        carry, _ = jax.lax.scan(
            scan_tqdm(n_iter)(one_iteration),
            carry,
            jnp.arange(n_iter),
        )

    (
        init_params,
        last_non_nan_params,
        data,
        curr_seq,
        seq2seq,
        stored_params,
        stored_loss_terms,
        loss,
        param_data,
        obs_data,
        opt_state,
        total_loss_values,
    ) = carry

    jax.debug.print(
        "Iteration {i}: loss value = {total_loss_val}",
        i=n_iter,
        total_loss_val=total_loss_values[-1],
    )

    return (
        last_non_nan_params,
        total_loss_values,
        stored_loss_terms,
        data,
        loss,
        opt_state,
        stored_params,
    )


def get_gradient_step_for_loss(optimizer, loss):
    """
    A wrapper for loss and optimizer that cannot be jitted
    """

    @jit
    def gradient_step(batch, params, opt_state, last_non_nan_params):
        value_grad_loss = jax.value_and_grad(loss, has_aux=True)
        (loss_val, loss_terms), grads = value_grad_loss(params, batch)
        updates, opt_state = optimizer.update(grads, opt_state, params)
        params = optax.apply_updates(params, updates)

        # check if any of the parameters is NaN
        last_non_nan_params = jax.lax.cond(
            _check_nan_in_pytree(params),
            lambda _: last_non_nan_params,
            lambda _: params,
            None,
        )

        return (
            loss_val,
            loss_terms,
            params,
            opt_state,
            last_non_nan_params,
        )

    return gradient_step


@jit
def print_fn(i, loss_val, print_loss_every):
    # note that if the following is not jitted in the main lor loop, it is
    # super slow
    _ = jax.lax.cond(
        i % print_loss_every == 0,
        lambda _: jax.debug.print(
            "Iteration {i}: loss value = {loss_val}",
            i=i,
            loss_val=loss_val,
        ),
        lambda _: None,
        (None,),
    )


@jit
def store_loss_and_params(
    i,
    params,
    stored_params,
    stored_loss_terms,
    total_loss_values,
    loss_val,
    loss_terms,
    tracked_params,
):
    stored_params = jax.tree_util.tree_map(
        lambda stored_value, param, tracked_param: jax.lax.cond(
            tracked_param,
            lambda ope: ope[0].at[i].set(ope[1]),
            lambda ope: ope[0],
            (stored_value, param),
        ),
        stored_params,
        params,
        tracked_params,
    )
    stored_loss_terms = jax.tree_util.tree_map(
        lambda stored_term, loss_term: stored_term.at[i].set(loss_term),
        stored_loss_terms,
        loss_terms,
    )

    total_loss_values = total_loss_values.at[i].set(loss_val)
    return stored_params, stored_loss_terms, total_loss_values


def get_get_batch(obs_batch_sharding):
    """
    Return the get_batch function that will be used either the jittable one or
    the non-jittable one with sharding
    """

    def get_batch_sharding(data, param_data, obs_data):
        """
        This function is used at each loop but it cannot be jitted because of
        device_put

        Note: return all that's modified or unwanted dirty undefined behaviour
        """
        batch = data.get_batch()
        if param_data is not None:
            batch = append_param_batch(batch, param_data.get_batch())
        if obs_data is not None:
            # This is the part that motivated the transition from scan to for loop
            # Indeed we need to be transit obs_batch from CPU to GPU when we have
            # huge observations that cannot fit on GPU. Such transfer wasn't meant
            # to be jitted, i.e. in a scan loop
            obs_batch = jax.device_put(obs_data.get_batch(), obs_batch_sharding)
            batch = append_obs_batch(batch, obs_batch)
        return batch, data, param_data, obs_data

    @jit
    def get_batch(data, param_data, obs_data):
        """
        Original get_batch with not sharding

        Note: return all that's modified or unwanted dirty undefined behaviour
        """
        batch = data.get_batch()
        if param_data is not None:
            batch = append_param_batch(batch, param_data.get_batch())
        if obs_data is not None:
            batch = append_obs_batch(batch, obs_data.get_batch())
        return batch, data, param_data, obs_data

    if obs_batch_sharding is not None:
        return get_batch_sharding
    return get_batch



# --- scaffolding: a logistic-growth ODE PINN, 8 iterations on the Python-loop path (obs_batch_sharding set) ---
def u(t, params):  # scaffolding: a 1-16-1 tanh network
    p = params["nn_params"]  # scaffolding
    return jnp.tanh(t * p["w1"] + p["b1"]) @ p["w2"]  # scaffolding


def dynamic_loss(t, u, params):  # scaffolding: u' = r u (1 - u)
    return jax.grad(u)(t, params) - params["eq_params"]["r"] * u(t, params) * (1 - u(t, params))  # scaffolding


_k = jax.random.split(jax.random.PRNGKey(0), 3)  # scaffolding
init_params = {"nn_params": {"w1": jax.random.normal(_k[0], (16,)), "b1": jnp.zeros(16), "w2": 0.1 * jax.random.normal(_k[1], (16,))},  # scaffolding
               "eq_params": {"r": jnp.ones(())}}  # scaffolding
loss = LossODE(u=u, loss_weights={"dyn_loss": 1.0, "initial_condition": 1.0}, dynamic_loss=dynamic_loss, initial_condition=(0.0, 0.1))  # scaffolding
n_iter = 8  # scaffolding
out = solve(n_iter, init_params, DataGeneratorODE(_k[2]), loss, optax.adam(1e-3), print_loss_every=1000,  # scaffolding
            obs_batch_sharding=jax.sharding.SingleDeviceSharding(jax.devices()[0]))  # scaffolding
_report({"jit(gradient_step)"}, n_iter)  # scaffolding
