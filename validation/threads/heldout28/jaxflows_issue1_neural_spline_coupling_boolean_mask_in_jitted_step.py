# source: https://github.com/ChrisWaites/jax-flows/issues/1
# expect: trace-time-error at line 611
# runtime: ERROR NonConcreteBooleanIndexError
# why: with the NeuralSplineCoupling flow, the notebook's @jit step traces unconstrained_RQS, which indexes the inputs with the data-dependent mask inputs[outside_interval_mask]; boolean masks must be concrete under jit, so tracing raises NonConcreteBooleanIndexError (the reporter's 'IndexError: Array boolean indices must be concrete').
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



import sys  # scaffolding
import types  # scaffolding: the flows package is flattened into this file

sys.excepthook = lambda t, e, tb: print(f"ERROR {t.__name__}")  # scaffolding: reports an exception raised by the notebook's module-level training loop
import jax  # scaffolding
import jax.numpy as jnp  # scaffolding
from jax.example_libraries import stax, optimizers  # scaffolding: jax.experimental.stax/optimizers (2021) moved here

jax.ops.index = jnp.index_exp  # scaffolding: jax.ops.index/index_update/index_add were removed from jax; same semantics via .at[]
jax.ops.index_update = lambda x, idx, y: x.at[idx].set(y)  # scaffolding
jax.ops.index_add = lambda x, idx, y: x.at[idx].add(y)  # scaffolding

# ---- flows/bijections/bijections.py (26dce81) ----
import jax.numpy as np
import jax.scipy.special as spys
from jax import random, scipy
from jax.nn.initializers import orthogonal
from jax.scipy import linalg

# Each layer constructor function returns an init_fun where...
#
# init_fun: a function taking an rng key and an input shape and returns...
#     params: a pytree
#     direct_fun: a function taking params and inputs and returns...
#         outputs: the mapped inputs when the layer is applied
#         log_det_jacobian: the log of the determinant of the jacobian
#     inverse_fun: a function taking params and inputs and returns...
#         outputs: the mapped inputs when the layer is applied
#         log_det_jacobian: the log of the determinant of the jacobian


def ActNorm():
    """An implementation of an actnorm layer from `Glow: Generative Flow with Invertible 1x1 Convolutions`
    (https://arxiv.org/abs/1807.03039).

    Returns:
        An ``init_fun`` mapping ``(rng, input_dim)`` to a ``(params, direct_fun, inverse_fun)`` triplet.
    """

    def init_fun(rng, input_dim, **kwargs):
        init_inputs = kwargs.pop("init_inputs", None)

        if not (init_inputs is None):
            log_weight = np.log(1.0 / (init_inputs.std(0) + 1e-6))
            bias = init_inputs.mean(0)
        else:
            log_weight = np.zeros(input_dim)
            bias = np.zeros(input_dim)

        def direct_fun(params, inputs, **kwargs):
            log_weight, bias = params
            outputs = (inputs - bias) * np.exp(log_weight)
            log_det_jacobian = np.full(inputs.shape[:1], log_weight.sum())
            return outputs, log_det_jacobian

        def inverse_fun(params, inputs, **kwargs):
            log_weight, bias = params
            outputs = inputs * np.exp(-log_weight) + bias
            log_det_jacobian = np.full(inputs.shape[:1], -log_weight.sum())
            return outputs, log_det_jacobian

        return (log_weight, bias), direct_fun, inverse_fun

    return init_fun


def AffineCouplingSplit(scale, translate):
    """An implementation of a coupling layer from `Density Estimation Using RealNVP`
    (https://arxiv.org/abs/1605.08803).

    Args:
        scale: An ``(params, apply_fun)`` pair characterizing a trainable scaling function
        translate: An ``(params, apply_fun)`` pair characterizing a trainable translation function

    Returns:
        An ``init_fun`` mapping ``(rng, input_dim)`` to a ``(params, direct_fun, inverse_fun)`` triplet.
    """

    def init_fun(rng, input_dim, **kwargs):
        cutoff = input_dim // 2

        scale_rng, rng = random.split(rng)
        scale_params, scale_apply_fun = scale(scale_rng, cutoff, input_dim - cutoff)

        translate_rng, rng = random.split(rng)
        translate_params, translate_apply_fun = translate(translate_rng, cutoff, input_dim - cutoff)

        def direct_fun(params, inputs, **kwargs):
            scale_params, translate_params = params
            lower, upper = inputs[:, :cutoff], inputs[:, cutoff:]

            log_weight = scale_apply_fun(scale_params, lower)
            bias = translate_apply_fun(translate_params, lower)
            upper = upper * np.exp(log_weight) + bias

            outputs = np.concatenate([lower, upper], axis=1)
            log_det_jacobian = log_weight.sum(-1)
            return outputs, log_det_jacobian

        def inverse_fun(params, inputs, **kwargs):
            scale_params, translate_params = params
            lower, upper = inputs[:, :cutoff], inputs[:, cutoff:]

            log_weight = scale_apply_fun(scale_params, lower)
            bias = translate_apply_fun(translate_params, lower)
            upper = (upper - bias) * np.exp(-log_weight)

            outputs = np.concatenate([lower, upper], axis=1)
            log_det_jacobian = log_weight.sum(-1)
            return outputs, log_det_jacobian

        return (scale_params, translate_params), direct_fun, inverse_fun

    return init_fun


def AffineCoupling(transform):
    """An implementation of a coupling layer from `Density Estimation Using RealNVP`
    (https://arxiv.org/abs/1605.08803).

    Args:
        net: An ``(params, apply_fun)`` pair characterizing a trainable translation function

    Returns:
        An ``init_fun`` mapping ``(rng, input_dim)`` to a ``(params, direct_fun, inverse_fun)`` triplet.
    """

    def init_fun(rng, input_dim, **kwargs):
        cutoff = input_dim // 2
        params, apply_fun = transform(rng, cutoff, 2 * (input_dim - cutoff))

        def direct_fun(params, inputs, **kwargs):
            lower, upper = inputs[:, :cutoff], inputs[:, cutoff:]

            log_weight, bias = apply_fun(params, lower).split(2, axis=1)
            upper = upper * np.exp(log_weight) + bias

            outputs = np.concatenate([lower, upper], axis=1)
            log_det_jacobian = log_weight.sum(-1)
            return outputs, log_det_jacobian

        def inverse_fun(params, inputs, **kwargs):
            lower, upper = inputs[:, :cutoff], inputs[:, cutoff:]

            log_weight, bias = apply_fun(params, lower).split(2, axis=1)
            upper = (upper - bias) * np.exp(-log_weight)

            outputs = np.concatenate([lower, upper], axis=1)
            log_det_jacobian = log_weight.sum(-1)
            return outputs, log_det_jacobian

        return params, direct_fun, inverse_fun

    return init_fun


def BatchNorm(momentum=0.9):
    """An implementation of a batch normalization layer from `Density Estimation Using RealNVP`
    (https://arxiv.org/abs/1605.08803).

    Returns:
        An ``init_fun`` mapping ``(rng, input_dim)`` to a ``(params, direct_fun, inverse_fun)`` triplet.
    """

    def init_fun(rng, input_dim, **kwargs):
        log_weight = np.zeros(input_dim)
        bias = np.zeros(input_dim)
        eps = 1e-5

        # Which is better, keeping track of state as an edge case for batchnorm or changing
        # the entire library's interface to return a layer state and keep functions pure?
        state = {}

        def direct_fun(params, inputs, **kwargs):
            evaluation = kwargs.pop("evaluation", None)
            log_weight, bias = params

            if "running_mean" not in state:
                state["running_mean"] = np.zeros(input_dim)
                state["running_var"] = np.ones(input_dim)
            running_mean, running_var = state["running_mean"], state["running_var"]

            if evaluation:
                mean = running_mean
                var = running_var
            else:
                batch_mean = inputs.mean(0)
                batch_var = ((inputs - batch_mean) ** 2.0).mean(0) + eps

                state["batch_mean"] = batch_mean
                state["batch_var"] = batch_var

                running_mean = (running_mean * momentum) + (batch_mean * (1 - momentum))
                running_var = (running_var * momentum) + (batch_var * (1 - momentum))

                mean = batch_mean
                var = batch_var

            x_hat = (inputs - mean) / np.sqrt(var)

            outputs = x_hat * np.exp(log_weight) + bias
            log_det_jacobian = np.full((inputs.shape[0],), (log_weight - 0.5 * np.log(var)).sum())
            return outputs, log_det_jacobian

        def inverse_fun(params, inputs, **kwargs):
            evaluation = kwargs.pop("evaluation", None)
            log_weight, bias = params

            if "running_mean" not in state:
                state["running_mean"] = np.zeros(input_dim)
                state["running_var"] = np.ones(input_dim)
            running_mean, running_var = state["running_mean"], state["running_var"]

            if evaluation:
                mean = running_mean
                var = running_var
            else:
                mean = state["batch_mean"]
                var = state["batch_var"]

            x_hat = (inputs - bias) * np.exp(-log_weight)

            outputs = x_hat * np.sqrt(var) + mean
            log_det_jacobian = np.full((inputs.shape[0],), (-log_weight + 0.5 * np.log(var)).sum())
            return outputs, log_det_jacobian

        return (log_weight, bias), direct_fun, inverse_fun

    return init_fun


def Invert(bijection):
    """Inverts a tranformation so that its ``direct_fun`` is its ``inverse_fun`` and vice versa.

    Returns:
        An ``init_fun`` mapping ``(rng, input_dim)`` to a ``(params, direct_fun, inverse_fun)`` triplet.
    """

    def init_fun(rng, input_dim, **kwargs):
        params, direct_fun, inverse_fun = bijection(rng, input_dim)
        return params, inverse_fun, direct_fun

    return init_fun


def FixedInvertibleLinear():
    """An implementation of an invertible linear layer from `Glow: Generative Flow with Invertible 1x1 Convolutions`
    (https://arxiv.org/abs/1605.08803).

    Returns:
        An ``init_fun`` mapping ``(rng, input_dim)`` to a ``(params, direct_fun, inverse_fun)`` triplet.
    """

    def init_fun(rng, input_dim, **kwargs):
        W = orthogonal()(rng, (input_dim, input_dim))
        W_inv = linalg.inv(W)
        W_log_det = np.linalg.slogdet(W)[-1]

        def direct_fun(params, inputs, **kwargs):
            outputs = inputs @ W
            log_det_jacobian = np.full(inputs.shape[:1], W_log_det)
            return outputs, log_det_jacobian

        def inverse_fun(params, inputs, **kwargs):
            outputs = inputs @ W_inv
            log_det_jacobian = np.full(inputs.shape[:1], -W_log_det)
            return outputs, log_det_jacobian

        return (), direct_fun, inverse_fun

    return init_fun


def InvertibleLinear():
    """An implementation of an invertible linear layer from `Glow: Generative Flow with Invertible 1x1 Convolutions`
    (https://arxiv.org/abs/1605.08803).

    Returns:
        An ``init_fun`` mapping ``(rng, input_dim)`` to a ``(params, direct_fun, inverse_fun)`` triplet.
    """

    def init_fun(rng, input_dim, **kwargs):
        W = orthogonal()(rng, (input_dim, input_dim))
        P, L, U = scipy.linalg.lu(W)
        S = np.diag(U)
        U = np.triu(U, 1)
        identity = np.eye(input_dim)

        def direct_fun(params, inputs, **kwargs):
            L, U, S = params
            L = np.tril(L, -1) + identity
            U = np.triu(U, 1)
            W = P @ L @ (U + np.diag(S))

            outputs = inputs @ W
            log_det_jacobian = np.full(inputs.shape[:1], np.log(np.abs(S)).sum())
            return outputs, log_det_jacobian

        def inverse_fun(params, inputs, **kwargs):
            L, U, S = params
            L = np.tril(L, -1) + identity
            U = np.triu(U, 1)
            W = P @ L @ (U + np.diag(S))

            outputs = inputs @ linalg.inv(W)
            log_det_jacobian = np.full(inputs.shape[:1], -np.log(np.abs(S)).sum())
            return outputs, log_det_jacobian

        return (L, U, S), direct_fun, inverse_fun

    return init_fun


def Logit(clip_before_logit=True):
    """Computes the logit function on a set of inputs, with sigmoid function being its inverse.

    Important note: Values passed through this layer are clipped to be within a range computable using 32 bits. This
    was done in "Cubic-Spline Flows" by Durkan et al. Technically this breaks invertibility, but it avoids
    inevitable NaNs.

    Args:
        clip_before_logit: Whether to clip values to range [1e-5, 1 - 1e-5] before being passed through logit.

    Returns:
        An ``init_fun`` mapping ``(rng, input_dim)`` to a ``(params, direct_fun, inverse_fun)`` triplet.
    """
    return Invert(Sigmoid(clip_before_logit))


def Reverse():
    """An implementation of a reversing layer from `Density Estimation Using RealNVP`
    (https://arxiv.org/abs/1605.08803).

    Returns:
        An ``init_fun`` mapping ``(rng, input_dim)`` to a ``(params, direct_fun, inverse_fun)`` triplet.

    Examples:
        >>> num_examples, input_dim, tol = 20, 3, 1e-4
        >>> layer_rng, input_rng = random.split(random.PRNGKey(0))
        >>> inputs = random.uniform(input_rng, (num_examples, input_dim))
        >>> init_fun = Reverse()
        >>> params, direct_fun, inverse_fun = init_fun(layer_rng, input_dim)
        >>> mapped_inputs = direct_fun(params, inputs)[0]
        >>> reconstructed_inputs = inverse_fun(params, mapped_inputs)[0]
        >>> np.allclose(inputs, reconstructed_inputs).item()
        True
    """

    def init_fun(rng, input_dim, **kwargs):
        perm = np.arange(input_dim)[::-1]

        def direct_fun(params, inputs, **kwargs):
            return inputs[:, perm], np.zeros(inputs.shape[:1])

        def inverse_fun(params, inputs, **kwargs):
            return inputs[:, perm], np.zeros(inputs.shape[:1])

        return (), direct_fun, inverse_fun

    return init_fun


def Shuffle():
    """An implementation of a shuffling layer from `Density Estimation Using RealNVP`
    (https://arxiv.org/abs/1605.08803).

    Returns:
        An ``init_fun`` mapping ``(rng, input_dim)`` to a ``(params, direct_fun, inverse_fun)`` triplet.

    Examples:
        >>> num_examples, input_dim, tol = 20, 3, 1e-4
        >>> layer_rng, input_rng = random.split(random.PRNGKey(0))
        >>> inputs = random.uniform(input_rng, (num_examples, input_dim))
        >>> init_fun = Shuffle()
        >>> params, direct_fun, inverse_fun = init_fun(layer_rng, input_dim)
        >>> mapped_inputs = direct_fun(params, inputs)[0]
        >>> reconstructed_inputs = inverse_fun(params, mapped_inputs)[0]
        >>> np.allclose(inputs, reconstructed_inputs).item()
        True
    """

    def init_fun(rng, input_dim, **kwargs):
        perm = random.permutation(rng, np.arange(input_dim))
        inv_perm = np.argsort(perm)

        def direct_fun(params, inputs, **kwargs):
            return inputs[:, perm], np.zeros(inputs.shape[:1])

        def inverse_fun(params, inputs, **kwargs):
            return inputs[:, inv_perm], np.zeros(inputs.shape[:1])

        return (), direct_fun, inverse_fun

    return init_fun


def Sigmoid(clip_before_logit=True):
    """Computes the sigmoid function on a set of inputs, with the logit function being its inverse.

    Important note: Values passed through this layer are clipped to be within a range computable using 32 bits. This
    was done in "Cubic-Spline Flows" by Durkan et al. Technically this breaks invertibility, but it avoids
    inevitable NaNs.

    Args:
        clip_before_logit: Whether to clip values to range [1e-5, 1 - 1e-5] before being passed through logit.

    Returns:
        An ``init_fun`` mapping ``(rng, input_dim)`` to a ``(params, direct_fun, inverse_fun)`` triplet.
    """

    def init_fun(rng, input_dim, **kwargs):
        def direct_fun(params, inputs, **kwargs):
            outputs = spys.expit(inputs)
            log_det_jacobian = np.log(spys.expit(inputs) * (1 - spys.expit(inputs))).sum(-1)
            return outputs, log_det_jacobian

        def inverse_fun(params, inputs, **kwargs):
            if clip_before_logit:
                inputs = np.clip(inputs, 1e-5, 1 - 1e-5)

            outputs = spys.logit(inputs)
            log_det_jacobian = -np.log(inputs - np.square(inputs)).sum(-1)
            return outputs, log_det_jacobian

        return (), direct_fun, inverse_fun

    return init_fun


def Serial(*init_funs):
    """
    Args:
        *init_funs: Multiple bijections in sequence

    Returns:
        An ``init_fun`` mapping ``(rng, input_dim)`` to a ``(params, direct_fun, inverse_fun)`` triplet.

    Examples:
        >>> num_examples, input_dim, tol = 20, 3, 1e-4
        >>> layer_rng, input_rng = random.split(random.PRNGKey(0))
        >>> inputs = random.uniform(input_rng, (num_examples, input_dim))
        >>> init_fun = Serial(Shuffle(), Shuffle())
        >>> params, direct_fun, inverse_fun = init_fun(layer_rng, input_dim)
        >>> mapped_inputs = direct_fun(params, inputs)[0]
        >>> reconstructed_inputs = inverse_fun(params, mapped_inputs)[0]
        >>> np.allclose(inputs, reconstructed_inputs).item()
        True
    """

    def init_fun(rng, input_dim, **kwargs):
        init_inputs = kwargs.pop("init_inputs", None)

        all_params, direct_funs, inverse_funs = [], [], []
        for init_fun in init_funs:
            rng, layer_rng = random.split(rng)
            param, direct_fun, inverse_fun = init_fun(layer_rng, input_dim, init_inputs=init_inputs)

            all_params.append(param)
            direct_funs.append(direct_fun)
            inverse_funs.append(inverse_fun)

            if not (init_inputs is None):
                init_inputs = direct_fun(param, init_inputs)[0]

        def feed_forward(params, apply_funs, inputs):
            log_det_jacobians = np.zeros(inputs.shape[:1])
            for apply_fun, param in zip(apply_funs, params):
                inputs, log_det_jacobian = apply_fun(param, inputs, **kwargs)
                log_det_jacobians += log_det_jacobian
            return inputs, log_det_jacobians

        def direct_fun(params, inputs, **kwargs):
            return feed_forward(params, direct_funs, inputs)

        def inverse_fun(params, inputs, **kwargs):
            return feed_forward(reversed(params), reversed(inverse_funs), inputs)

        return all_params, direct_fun, inverse_fun

    return init_fun

# ---- flows/bijections/made.py (26dce81) ----
import jax
import jax.numpy as np
from jax import random


def MaskedDense(mask):
    def init_fun(rng, input_shape):
        out_dim = mask.shape[-1]
        output_shape = input_shape[:-1] + (out_dim,)
        k1, k2 = random.split(rng)
        bound = 1.0 / (input_shape[-1] ** 0.5)
        W = random.uniform(k1, (input_shape[-1], out_dim), minval=-bound, maxval=bound)
        b = random.uniform(k2, (out_dim,), minval=-bound, maxval=bound)
        return output_shape, (W, b)

    def apply_fun(params, inputs, **kwargs):
        W, b = params
        return np.dot(inputs, W * mask) + b

    return init_fun, apply_fun


def MADE(transform):
    """An implementation of `MADE: Masked Autoencoder for Distribution Estimation`
    (https://arxiv.org/abs/1502.03509).

    Args:
        transform: maps inputs of dimension ``num_inputs`` to ``2 * num_inputs``

    Returns:
        An ``init_fun`` mapping ``(rng, input_dim)`` to a ``(params, direct_fun, inverse_fun)`` triplet.
    """

    def init_fun(rng, input_dim, **kwargs):
        params, apply_fun = transform(rng, input_dim)

        def direct_fun(params, inputs, **kwargs):
            log_weight, bias = apply_fun(params, inputs).split(2, axis=1)
            outputs = (inputs - bias) * np.exp(-log_weight)
            log_det_jacobian = -log_weight.sum(-1)
            return outputs, log_det_jacobian

        def inverse_fun(params, inputs, **kwargs):
            outputs = np.zeros_like(inputs)
            for i_col in range(inputs.shape[1]):
                log_weight, bias = apply_fun(params, outputs).split(2, axis=1)
                outputs = jax.ops.index_update(
                    outputs, jax.ops.index[:, i_col], inputs[:, i_col] * np.exp(log_weight[:, i_col]) + bias[:, i_col]
                )
            log_det_jacobian = -log_weight.sum(-1)
            return outputs, log_det_jacobian

        return params, direct_fun, inverse_fun

    return init_fun

# ---- flows/bijections/neural_splines.py (26dce81) ----
import jax.numpy as np
import numpy as onp
from jax import nn, ops, random
# from jax.experimental import stax  # scaffolding: imported from jax.example_libraries above

DEFAULT_MIN_BIN_WIDTH = 1e-3
DEFAULT_MIN_BIN_HEIGHT = 1e-3
DEFAULT_MIN_DERIVATIVE = 1e-3


def searchsorted(bin_locations, inputs, eps=1e-6):
    bin_locations = ops.index_add(bin_locations, ops.index[..., -1], eps)  # bin_locations[..., -1] += eps
    return np.sum(inputs[..., None] >= bin_locations, axis=-1) - 1


def unconstrained_RQS(
    inputs,
    unnormalized_widths,
    unnormalized_heights,
    unnormalized_derivatives,
    inverse=False,
    tail_bound=1.0,
    min_bin_width=DEFAULT_MIN_BIN_WIDTH,
    min_bin_height=DEFAULT_MIN_BIN_HEIGHT,
    min_derivative=DEFAULT_MIN_DERIVATIVE,
):
    inside_interval_mask = (inputs >= -tail_bound) & (inputs <= tail_bound)
    outside_interval_mask = ~inside_interval_mask

    outputs = np.zeros_like(inputs)
    logabsdet = np.zeros_like(inputs)

    unnormalized_derivatives = np.pad(
        unnormalized_derivatives, [(0, 0)] * (len(unnormalized_derivatives.shape) - 1) + [(1, 1)]
    )
    constant = np.log(np.exp(1 - min_derivative) - 1)
    unnormalized_derivatives = ops.index_update(
        unnormalized_derivatives, ops.index[..., 0], constant
    )  # unnormalized_derivatives[..., 0] = constant
    unnormalized_derivatives = ops.index_update(
        unnormalized_derivatives, ops.index[..., -1], constant
    )  # unnormalized_derivatives[..., -1] = constant

    outputs = ops.index_update(
        outputs, ops.index[outside_interval_mask], inputs[outside_interval_mask]
    )  # outputs[outside_interval_mask] = inputs[outside_interval_mask]
    logabsdet = ops.index_update(
        logabsdet, ops.index[outside_interval_mask], 0
    )  # logabsdet[outside_interval_mask] = 0

    outs, logdets = RQS(
        inputs=inputs[inside_interval_mask],
        unnormalized_widths=unnormalized_widths[inside_interval_mask, :],
        unnormalized_heights=unnormalized_heights[inside_interval_mask, :],
        unnormalized_derivatives=unnormalized_derivatives[inside_interval_mask, :],
        inverse=inverse,
        left=-tail_bound,
        right=tail_bound,
        bottom=-tail_bound,
        top=tail_bound,
        min_bin_width=min_bin_width,
        min_bin_height=min_bin_height,
        min_derivative=min_derivative,
    )

    outputs = ops.index_update(outputs, ops.index[inside_interval_mask], outs)  # outputs[inside_interval_mask] = outs
    logabsdet = ops.index_update(
        logabsdet, ops.index[inside_interval_mask], logdets
    )  # logabsdet[inside_interval_mask] = logdets

    return outputs, logabsdet


def RQS(
    inputs,
    unnormalized_widths,
    unnormalized_heights,
    unnormalized_derivatives,
    inverse=False,
    left=0.0,
    right=1.0,
    bottom=0.0,
    top=1.0,
    min_bin_width=DEFAULT_MIN_BIN_WIDTH,
    min_bin_height=DEFAULT_MIN_BIN_HEIGHT,
    min_derivative=DEFAULT_MIN_DERIVATIVE,
):
    if np.min(inputs) < left or np.max(inputs) > right:
        raise ValueError("Input outside domain")

    num_bins = unnormalized_widths.shape[-1]

    if min_bin_width * num_bins > 1.0:
        raise ValueError("Minimal bin width too large for the number of bins")
    if min_bin_height * num_bins > 1.0:
        raise ValueError("Minimal bin height too large for the number of bins")

    widths = nn.softmax(unnormalized_widths, axis=-1)
    widths = min_bin_width + (1 - min_bin_width * num_bins) * widths
    cumwidths = np.cumsum(widths, axis=-1)
    cumwidths = np.pad(
        cumwidths, [(0, 0)] * (len(cumwidths.shape) - 1) + [(1, 0)], mode="constant", constant_values=0.0
    )
    cumwidths = (right - left) * cumwidths + left
    cumwidths = ops.index_update(cumwidths, ops.index[..., 0], left)  # cumwidths[..., 0] = left
    cumwidths = ops.index_update(cumwidths, ops.index[..., -1], right)  # cumwidths[..., -1] = right
    widths = cumwidths[..., 1:] - cumwidths[..., :-1]

    derivatives = min_derivative + nn.softplus(unnormalized_derivatives)

    heights = nn.softmax(unnormalized_heights, axis=-1)
    heights = min_bin_height + (1 - min_bin_height * num_bins) * heights
    cumheights = np.cumsum(heights, axis=-1)
    cumheights = np.pad(
        cumheights, [(0, 0)] * (len(cumheights.shape) - 1) + [(1, 0)], mode="constant", constant_values=0.0
    )
    cumheights = (top - bottom) * cumheights + bottom
    cumheights = ops.index_update(cumheights, ops.index[..., 0], bottom)  # cumheights[..., 0] = bottom
    cumheights = ops.index_update(cumheights, ops.index[..., -1], top)  # cumheights[..., -1] = top
    heights = cumheights[..., 1:] - cumheights[..., :-1]

    if inverse:
        bin_idx = searchsorted(cumheights, inputs)[..., None]
    else:
        bin_idx = searchsorted(cumwidths, inputs)[..., None]

    input_cumwidths = np.take_along_axis(cumwidths, bin_idx, -1)[..., 0]  # cumwidths.gather(-1, bin_idx)[..., 0]
    input_bin_widths = np.take_along_axis(widths, bin_idx, -1)[..., 0]  # widths.gather(-1, bin_idx)[..., 0]

    input_cumheights = np.take_along_axis(cumheights, bin_idx, -1)[..., 0]  # cumheights.gather(-1, bin_idx)[..., 0]
    delta = heights / widths
    input_delta = np.take_along_axis(delta, bin_idx, -1)[..., 0]  # delta.gather(-1, bin_idx)[..., 0]

    input_derivatives = np.take_along_axis(derivatives, bin_idx, -1)[..., 0]  # derivatives.gather(-1, bin_idx)[..., 0]
    input_derivatives_plus_one = np.take_along_axis(
        derivatives[..., 1:], bin_idx, -1
    )  # derivatives[..., 1:].gather(-1, bin_idx)
    input_derivatives_plus_one = input_derivatives_plus_one[..., 0]

    input_heights = np.take_along_axis(heights, bin_idx, -1)[..., 0]  # heights.gather(-1, bin_idx)[..., 0]

    if inverse:
        a = (inputs - input_cumheights) * (
            input_derivatives + input_derivatives_plus_one - 2 * input_delta
        ) + input_heights * (input_delta - input_derivatives)
        b = input_heights * input_derivatives - (inputs - input_cumheights) * (
            input_derivatives + input_derivatives_plus_one - 2 * input_delta
        )
        c = -input_delta * (inputs - input_cumheights)

        discriminant = np.square(b) - 4 * a * c
        assert (discriminant >= 0).all()

        root = (2 * c) / (-b - np.sqrt(discriminant))
        outputs = root * input_bin_widths + input_cumwidths

        theta_one_minus_theta = root * (1 - root)
        denominator = input_delta + (
            (input_derivatives + input_derivatives_plus_one - 2 * input_delta) * theta_one_minus_theta
        )
        derivative_numerator = np.square(input_delta) * (
            input_derivatives_plus_one * np.square(root)
            + 2 * input_delta * theta_one_minus_theta
            + input_derivatives * np.square(1 - root)
        )
        logabsdet = np.log(derivative_numerator) - 2 * np.log(denominator)
        return outputs, -logabsdet
    else:
        theta = (inputs - input_cumwidths) / input_bin_widths
        theta_one_minus_theta = theta * (1 - theta)

        numerator = input_heights * (input_delta * np.square(theta) + input_derivatives * theta_one_minus_theta)
        denominator = input_delta + (
            (input_derivatives + input_derivatives_plus_one - 2 * input_delta) * theta_one_minus_theta
        )
        outputs = input_cumheights + numerator / denominator

        derivative_numerator = np.square(input_delta) * (
            input_derivatives_plus_one * np.square(theta)
            + 2 * input_delta * theta_one_minus_theta
            + input_derivatives * np.square(1 - theta)
        )
        logabsdet = np.log(derivative_numerator) - 2 * np.log(denominator)
        return outputs, logabsdet


def FCNN(out_dim, hidden_dim):
    return stax.serial(stax.Dense(hidden_dim), stax.Tanh, stax.Dense(hidden_dim), stax.Tanh, stax.Dense(out_dim),)


"""
def NeuralSplineAutoregressive(dim, K=5, B=3, hidden_dim=8, base_network=FCNN):

    def init_fun(rng, input_shape, **kwargs):
        layers = nn.ModuleList()
        init_param = nn.Parameter(np.Tensor(3 * K - 1))
        for i in range(1, dim):
            layers += [base_network(i, 3 * K - 1, hidden_dim)]
        reset_parameters()

        def reset_parameters():
            init.uniform_(init_param, -1 / 2, 1 / 2)

        def direct_fun(params, x):
            z = np.zeros_like(x)
            log_det = np.zeros(z.shape[0])
            for i in range(dim):
                if i == 0:
                    init_param = init_param.expand(x.shape[0], 3 * K - 1)
                    W, H, D = np.split(init_param, K, dim=1)
                else:
                    out = layers[i - 1](x[:, :i])
                    W, H, D = np.split(out, K, dim=1)
                W, H = nn.softmax(W, axis=1), nn.softmax(H, axis=1)
                W, H = 2 * B * W, 2 * B * H
                D = nn.softplus(D)
                z[:, i], ld = unconstrained_RQS(x[:, i], W, H, D, inverse=False, tail_bound=B)
                log_det += ld
            return z, log_det

        def inverse_fun(params, z):
            x = np.zeros_like(z)
            log_det = np.zeros(x.shape[0])
            for i in range(dim):
                if i == 0:
                    init_param = init_param.expand(x.shape[0], 3 * K - 1)
                    W, H, D = np.split(init_param, K, dim=1)
                else:
                    out = layers[i - 1](x[:, :i])
                    W, H, D = np.split(out, K, dim=1)
                W, H = nn.softmax(W, axis=1), nn.softmax(H, axis=1)
                W, H = 2 * B * W, 2 * B * H
                D = nn.softplus(D)
                x[:, i], ld = unconstrained_RQS(z[:, i], W, H, D, inverse=True, tail_bound=B)
                log_det += ld
            return x, log_det

        return (), direct_fun, inverse_fun

    return init_fun
"""


def NeuralSplineCoupling(K=5, B=3, hidden_dim=8, network=FCNN):
    def init_fun(rng, dim, **kwargs):
        f1_rng, f2_rng = random.split(rng)

        f1_init_fun, f1_apply_fun = network((3 * K - 1) * dim // 2, hidden_dim)
        _, f1_params = f1_init_fun(f1_rng, (dim // 2,))

        f2_init_fun, f2_apply_fun = network((3 * K - 1) * dim // 2, hidden_dim)
        _, f2_params = f2_init_fun(f2_rng, (dim // 2,))

        def direct_fun(params, x):
            log_det = np.zeros(x.shape[0])
            idx = dim // 2
            lower, upper = x[:, :idx], x[:, idx:]
            out = f1_apply_fun(f1_params, lower).reshape(-1, dim // 2, 3 * K - 1)
            W, H, D = onp.array_split(out, 3, axis=2)
            W, H = nn.softmax(W, axis=2), nn.softmax(H, axis=2)
            W, H = 2 * B * W, 2 * B * H
            D = nn.softplus(D)
            upper, ld = unconstrained_RQS(upper, W, H, D, inverse=False, tail_bound=B)
            log_det += np.sum(ld, axis=1)
            out = f2_apply_fun(f2_params, upper).reshape(-1, dim // 2, 3 * K - 1)
            W, H, D = onp.array_split(out, 3, axis=2)
            W, H = nn.softmax(W, axis=2), nn.softmax(H, axis=2)
            W, H = 2 * B * W, 2 * B * H
            D = nn.softplus(D)
            lower, ld = unconstrained_RQS(lower, W, H, D, inverse=False, tail_bound=B)
            log_det += np.sum(ld, axis=1)
            return np.concatenate([lower, upper], axis=1), log_det.reshape((x.shape[0],))

        def inverse_fun(params, z):
            log_det = np.zeros(z.shape[0])
            idx = dim // 2
            lower, upper = z[:, :idx], z[:, idx:]
            out = f2_apply_fun(f2_params, upper).reshape(-1, dim // 2, 3 * K - 1)
            W, H, D = onp.array_split(out, 3, axis=2)
            W, H = nn.softmax(W, axis=2), nn.softmax(H, axis=2)
            W, H = 2 * B * W, 2 * B * H
            D = nn.softplus(D)
            lower, ld = unconstrained_RQS(lower, W, H, D, inverse=True, tail_bound=B)
            log_det += np.sum(ld, axis=1)
            out = f1_apply_fun(f1_params, lower).reshape(-1, dim // 2, 3 * K - 1)
            W, H, D = onp.array_split(out, 3, axis=2)
            W, H = nn.softmax(W, axis=2), nn.softmax(H, axis=2)
            W, H = 2 * B * W, 2 * B * H
            D = nn.softplus(D)
            upper, ld = unconstrained_RQS(upper, W, H, D, inverse=True, tail_bound=B)
            log_det += np.sum(ld, axis=1)
            return np.concatenate([lower, upper], axis=1), log_det.reshape((z.shape[0],))

        return (f1_params, f2_params), direct_fun, inverse_fun

    return init_fun

# ---- flows/distributions.py (26dce81) ----
import jax.numpy as np
from jax import random
from jax.scipy.special import logsumexp
from jax.scipy.stats import norm, multivariate_normal


def Normal():
    """
    Returns:
        A function mapping ``(rng, input_dim)`` to a ``(params, log_pdf, sample)`` triplet.
    """

    def init_fun(rng, input_dim):
        def log_pdf(params, inputs):
            return norm.logpdf(inputs).sum(1)

        def sample(rng, params, num_samples=1):
            return random.normal(rng, (num_samples, input_dim))

        return (), log_pdf, sample

    return init_fun


def GMM(means, covariances, weights):
    def init_fun(rng, input_dim):
        def log_pdf(params, inputs):
            cluster_lls = []
            for log_weight, mean, cov in zip(np.log(weights), means, covariances):
                cluster_lls.append(log_weight + multivariate_normal.logpdf(inputs, mean, cov))
            return logsumexp(np.vstack(cluster_lls), axis=0)

        def sample(rng, params, num_samples=1):
            cluster_samples = []
            for mean, cov in zip(means, covariances):
                rng, temp_rng = random.split(rng)
                cluster_sample = random.multivariate_normal(temp_rng, mean, cov, (num_samples,))
                cluster_samples.append(cluster_sample)
            samples = np.dstack(cluster_samples)
            idx = random.categorical(rng, weights, shape=(num_samples, 1, 1))
            return np.squeeze(np.take_along_axis(samples, idx, -1))

        return (), log_pdf, sample

    return init_fun


def Flow(transformation, prior=Normal()):
    """
    Args:
        transformation: a function mapping ``(rng, input_dim)`` to a
            ``(params, direct_fun, inverse_fun)`` triplet
        prior: a function mapping ``(rng, input_dim)`` to a
            ``(params, log_pdf, sample)`` triplet

    Returns:
        A function mapping ``(rng, input_dim)`` to a ``(params, log_pdf, sample)`` triplet.

    Examples:
        >>> import flows
        >>> input_dim, rng = 3, random.PRNGKey(0)
        >>> transformation = flows.Serial(
        ...     flows.Reverse(),
        ...     flows.Reverse()
        ... )
        >>> init_fun = flows.Flow(transformation, Normal())
        >>> params, log_pdf, sample = init_fun(rng, input_dim)
    """

    def init_fun(rng, input_dim):
        transformation_rng, prior_rng = random.split(rng)

        params, direct_fun, inverse_fun = transformation(transformation_rng, input_dim)
        prior_params, prior_log_pdf, prior_sample = prior(prior_rng, input_dim)

        def log_pdf(params, inputs):
            u, log_det = direct_fun(params, inputs)
            log_probs = prior_log_pdf(prior_params, u)
            return log_probs + log_det

        def sample(rng, params, num_samples=1):
            prior_samples = prior_sample(rng, prior_params, num_samples)
            return inverse_fun(params, prior_samples)[0]

        return params, log_pdf, sample

    return init_fun

flows = types.SimpleNamespace(MaskedDense=MaskedDense, MADE=MADE, Serial=Serial, Reverse=Reverse, Flow=Flow, Normal=Normal, NeuralSplineCoupling=NeuralSplineCoupling)  # scaffolding: the package namespace


# ---- examples/intro.ipynb (26dce81), code cells in order ----
# cell 1
# import matplotlib.pyplot as plt  # scaffolding: matplotlib is not installed; a no-op stand-in below
# from sklearn import datasets, preprocessing  # scaffolding: scikit-learn is not installed; make_moons/StandardScaler stand-ins below
from IPython.display import clear_output
import jax.numpy as np

# %matplotlib inline  # scaffolding: IPython magic
import numpy as _onp  # scaffolding


class plt:  # scaffolding: no-op plotting
    @staticmethod
    def hist2d(*args, **kwargs):  # scaffolding
        return [None]  # scaffolding

    @staticmethod
    def show():  # scaffolding
        pass  # scaffolding


class datasets:  # scaffolding: sklearn.datasets.make_moons (same construction)
    @staticmethod
    def make_moons(n_samples=100, noise=None):  # scaffolding
        n_out, n_in = n_samples // 2, n_samples - n_samples // 2  # scaffolding
        outer = _onp.stack([_onp.cos(_onp.linspace(0, _onp.pi, n_out)), _onp.sin(_onp.linspace(0, _onp.pi, n_out))], 1)  # scaffolding
        inner = _onp.stack([1 - _onp.cos(_onp.linspace(0, _onp.pi, n_in)), 1 - _onp.sin(_onp.linspace(0, _onp.pi, n_in)) - 0.5], 1)  # scaffolding
        X = _onp.concatenate([outer, inner]) + _onp.random.default_rng(0).normal(scale=noise, size=(n_samples, 2))  # scaffolding
        return X, _onp.concatenate([_onp.zeros(n_out), _onp.ones(n_in)])  # scaffolding


class preprocessing:  # scaffolding: sklearn.preprocessing.StandardScaler
    class StandardScaler:  # scaffolding
        def fit_transform(self, X):  # scaffolding
            return (X - X.mean(0)) / X.std(0)  # scaffolding

# cell 3
n_samples = 1000  # scaffolding: 10000 in the notebook
plot_range = [(-2, 2), (-2, 2)]
n_bins = 100

scaler = preprocessing.StandardScaler()
X, _ = datasets.make_moons(n_samples=n_samples, noise=.05)
X = scaler.fit_transform(X)
plt.hist2d(X[:, 0], X[:, 1], bins=n_bins, range=plot_range)[-1]

# cell 4
import sys
# sys.path.append('..')  # scaffolding: flows is flattened above

# import flows  # scaffolding: namespace above

from jax import grad, jit, random
# from jax.experimental import stax, optimizers  # scaffolding: imported from jax.example_libraries above

# cell 6
rng, flow_rng = random.split(random.PRNGKey(0))
input_dim = X.shape[1]
num_epochs, batch_size = 2, 100  # scaffolding: 300 epochs in the notebook

# cell 9
def get_masks(input_dim, hidden_dim=64, num_hidden=1):
    masks = []
    input_degrees = np.arange(input_dim)
    degrees = [input_degrees]

    for n_h in range(num_hidden + 1):
        degrees += [np.arange(hidden_dim) % (input_dim - 1)]
    degrees += [input_degrees % input_dim - 1]

    for (d0, d1) in zip(degrees[:-1], degrees[1:]):
        masks += [np.transpose(np.expand_dims(d1, -1) >= np.expand_dims(d0, 0)).astype(np.float32)]
    return masks

def masked_transform(rng, input_dim):
    masks = get_masks(input_dim, hidden_dim=64, num_hidden=1)
    act = stax.Relu
    init_fun, apply_fun = stax.serial(
        flows.MaskedDense(masks[0]),
        act,
        flows.MaskedDense(masks[1]),
        act,
        flows.MaskedDense(masks[2].tile(2)),
    )
    _, params = init_fun(rng, (input_dim,))
    return params, apply_fun

# init_fun = flows.Flow(  # from the issue: the notebook's MAF is replaced by a NeuralSplineCoupling flow
#     flows.Serial(*(flows.MADE(masked_transform), flows.Reverse()) * 5),
#     flows.Normal(),
# )
bijection = flows.Serial(
    *(flows.NeuralSplineCoupling(K=8, B=1, hidden_dim=128),)*2
)

init_fun = flows.Flow(bijection, flows.Normal())

params, log_pdf, sample = init_fun(flow_rng, input_dim)

# cell 11
opt_init, opt_update, get_params = optimizers.adam(step_size=1e-4)
opt_state = opt_init(params)

# cell 12
from tqdm.notebook import trange
import itertools
import numpy.random as npr

# cell 14
def loss(params, inputs):
    return -log_pdf(params, inputs).mean()

@jit
def step(i, opt_state, inputs):
    params = get_params(opt_state)
    gradients = grad(loss)(params, inputs)
    return opt_update(i, gradients, opt_state)

# cell 16
itercount = itertools.count()

for epoch in range(num_epochs):
    clear_output(wait=True) # Clear plotting

    permute_rng, rng = random.split(rng)
    X = random.permutation(permute_rng, X)
    for batch_index in range(0, len(X), batch_size):
        opt_state = step(next(itercount), opt_state, X[batch_index:batch_index+batch_size])
     
    params = get_params(opt_state)
    sample_rng, rng = random.split(rng)
    X_syn = sample(rng, params, X.shape[0])
    
    plt.hist2d(X_syn[:, 0], X_syn[:, 1], bins=n_bins, range=plot_range)
    plt.show()

params = get_params(opt_state)


calls = next(itercount)  # scaffolding: number of step() calls made
_report({"jit(step)"}, calls)  # scaffolding
