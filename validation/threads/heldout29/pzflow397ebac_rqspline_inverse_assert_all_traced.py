# source: https://github.com/jfcrenshaw/pzflow/commit/397ebac2e399d3e7a70089fb6e6d1fb31a44b8ae
# expect: trace-time-error at line 111
# runtime: ERROR TracerBoolConversionError
# why: the rational-quadratic spline inverse asserts all(b ** 2 - 4 * a * c >= 0); eagerly this works on 2-column data, but under jit(inverse_fun) all() converts a traced bool row to a Python bool and raises TracerBoolConversionError.
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


# ---- pzflow/bijectors/neural_splines.py ----
from textwrap import dedent
import jax.numpy as np
from jax import random, ops
# from jax.experimental.stax import serial, Dense, Relu  # scaffolding: stax moved to jax.example_libraries
from jax.example_libraries.stax import serial, Dense, Relu  # scaffolding
from jax.nn import softmax, softplus
from typing import Callable


def _FCNN(out_dim: int, hidden_dim: int):
    return serial(
        Dense(hidden_dim),
        Relu,
        Dense(hidden_dim),
        Relu,
        Dense(out_dim),
    )


def _RationalQuadraticSpline(
    inputs,
    W,
    H,
    D,
    B: float = 3,
    inverse: bool = False,
):
    # knot x-positions
    xk = np.pad(
        -B + np.cumsum(W, axis=-1),
        [(0, 0)] * (len(W.shape) - 1) + [(1, 0)],
        mode="constant",
        constant_values=-B,
    )
    # knot y-positions
    yk = np.pad(
        -B + np.cumsum(H, axis=-1),
        [(0, 0)] * (len(H.shape) - 1) + [(1, 0)],
        mode="constant",
        constant_values=-B,
    )
    # knot derivatives
    dk = np.pad(
        D,
        [(0, 0)] * (len(D.shape) - 1) + [(1, 1)],
        mode="constant",
        constant_values=1,
    )
    # knot slopes
    sk = H / W

    # any out-of-bounds inputs will have identity applied
    # for now we will replace these inputs with dummy inputs
    # so that the spline doesn't cause any problems.
    # at the end, we will replace them with their original values
    out_of_bounds = (inputs <= -B) | (inputs >= B)
    masked_inputs = np.where(out_of_bounds, -B, inputs)

    # find bin for each input
    if inverse:
        idx = np.sum(yk <= masked_inputs[..., None], axis=-1)[..., None] - 1
    else:
        idx = np.sum(xk <= masked_inputs[..., None], axis=-1)[..., None] - 1

    # get kx, ky, kyp1, kd, kdp1, kw, ks for the bin corresponding to each input
    input_xk = np.take_along_axis(xk, idx, -1)[..., 0]
    input_yk = np.take_along_axis(yk, idx, -1)[..., 0]
    input_dk = np.take_along_axis(dk, idx, -1)[..., 0]
    input_dkp1 = np.take_along_axis(dk, idx + 1, -1)[..., 0]
    input_wk = np.take_along_axis(W, idx, -1)[..., 0]
    input_hk = np.take_along_axis(H, idx, -1)[..., 0]
    input_sk = np.take_along_axis(sk, idx, -1)[..., 0]

    if inverse:
        # quadratic formula coefficients
        a = (input_hk) * (input_sk - input_dk) + (masked_inputs - input_yk) * (
            input_dkp1 + input_dk - 2 * input_sk
        )
        b = (input_hk) * input_dk - (masked_inputs - input_yk) * (
            input_dkp1 + input_dk - 2 * input_sk
        )
        c = -input_sk * (masked_inputs - input_yk)

        assert all(b ** 2 - 4 * a * c >= 0)
        relx = 2 * c / (-b - np.sqrt(b ** 2 - 4 * a * c))
        outputs = np.where(out_of_bounds, inputs, relx * input_wk + input_xk)

        # calculate the log determinant
        dnum = (
            input_dkp1 * relx ** 2
            + 2 * input_sk * relx * (1 - relx)
            + input_dk * (1 - relx) ** 2
        )
        dden = input_sk + (input_dkp1 + input_dk - 2 * input_sk) * relx * (1 - relx)
        log_det = 2 * np.log(input_sk) + np.log(dnum) - 2 * np.log(dden)
        log_det = log_det.sum(axis=1)

        return outputs, -log_det

    else:
        # calculate spline
        relx = (masked_inputs - input_xk) / input_wk
        num = input_hk * (input_sk * relx ** 2 + input_dk * relx * (1 - relx))
        den = input_sk + (input_dkp1 + input_dk - 2 * input_sk) * relx * (1 - relx)
        spline_val = input_yk + num / den
        # replace out-of-bounds values
        outputs = np.where(out_of_bounds, inputs, spline_val)

        # calculate the log determinant
        dnum = (
            input_dkp1 * relx ** 2
            + 2 * input_sk * relx * (1 - relx)
            + input_dk * (1 - relx) ** 2
        )
        dden = input_sk + (input_dkp1 + input_dk - 2 * input_sk) * relx * (1 - relx)
        log_det = 2 * np.log(input_sk) + np.log(dnum) - 2 * np.log(dden)
        log_det = log_det.sum(axis=1)

        return outputs, log_det


def NeuralSplineCoupling(K: int = 8, B: float = 3, hidden_dim: int = 8) -> Callable:
    def init_fun(rng, input_dim, **kwargs):

        upper_dim = input_dim // 2  # variables that determine NN params
        lower_dim = input_dim - upper_dim  # variables transformed by the NN

        # create the neural network that will take in the upper dimensions and
        # will return the spline parameters to transform the lower dimensions
        network_init_fun, network_apply_fun = _FCNN((3 * K - 1) * lower_dim, hidden_dim)
        _, network_params = network_init_fun(rng, (upper_dim,))

        def forward_fun(params, inputs):
            upper, lower = inputs[:, :upper_dim], inputs[:, upper_dim:]
            # widths, heights, derivatives = function(upper variables)
            outputs = network_apply_fun(params, upper)
            outputs = np.reshape(outputs, [-1, lower_dim, 3 * K - 1])
            W, H, D = np.split(outputs, [K, 2 * K], axis=2)
            W = 2 * B * softmax(W)
            H = 2 * B * softmax(H)
            D = softplus(D)
            # transform the lower variables with the Rational Quadratic Spline
            lower, log_det = _RationalQuadraticSpline(lower, W, H, D, B, inverse=False)
            outputs = np.hstack((upper, lower))
            return outputs, log_det

        def inverse_fun(params, inputs):
            upper, lower = inputs[:, :upper_dim], inputs[:, upper_dim:]
            # widths, heights, derivatives = function(upper variables)
            outputs = network_apply_fun(params, upper)
            outputs = np.reshape(outputs, [-1, lower_dim, 3 * K - 1])
            W, H, D = np.split(outputs, [K, 2 * K], axis=2)
            W = 2 * B * softmax(W)
            H = 2 * B * softmax(H)
            D = softplus(D)
            # transform the lower variables with the Rational Quadratic Spline
            lower, log_det = _RationalQuadraticSpline(lower, W, H, D, B, inverse=True)
            outputs = np.hstack((upper, lower))
            return outputs, log_det

        return network_params, forward_fun, inverse_fun

    return init_fun


# ---- tests/test_bijectors.py: TestBijectors.test_is_jittable for NeuralSplineCoupling, run by hand ----
from jax import jit  # scaffolding: the test module's import (random is imported above)

x = np.array([[0.5, -0.3], [1.2, 0.4], [-0.8, 0.9], [0.1, 0.2]])  # scaffolding: 2-column (two-moons-like) data as in pzflow's tutorials; the test's 7-column array fails even eagerly (all() over 2-D rows)
bijector, args = NeuralSplineCoupling, ()  # scaffolding: the parametrize entry
try:  # scaffolding
    init_fun = bijector(*args)
    params, forward_fun, inverse_fun = init_fun(random.PRNGKey(0), x.shape[-1])

    fwd_outputs_1, fwd_log_det_1 = forward_fun(params, x)
    forward_fun = jit(forward_fun)
    fwd_outputs_2, fwd_log_det_2 = forward_fun(params, x)
    assert np.allclose(fwd_outputs_1, fwd_outputs_2)
    assert np.allclose(fwd_log_det_1, fwd_log_det_2)

    inv_outputs_1, inv_log_det_1 = inverse_fun(params, x)
    inverse_fun = jit(inverse_fun)
    inv_outputs_2, inv_log_det_2 = inverse_fun(params, x)
    assert np.allclose(inv_outputs_1, inv_outputs_2)
    assert np.allclose(inv_log_det_1, inv_log_det_2)
    _report({"jit(forward_fun)", "jit(inverse_fun)"}, 2)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
