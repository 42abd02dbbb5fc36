# source: https://github.com/mlaux1/rl-blox/pull/143
# expect: stale-closure at line 261
# runtime: ERROR ValueError
# why: Inside nnx.jit(update_encoder) the nnx.scan body `update` uses the encoder_target module captured from the enclosing trace instead of receiving it through the carry, and flax raises ValueError (graph node from a different trace level).

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


from collections import namedtuple
from collections.abc import Callable
from functools import partial

import chex
import jax.numpy as jnp
import jax.random
import optax
from flax import nnx


# --- rl_blox/blox/preprocessing.py ---
def make_two_hot_bins(
    lower_exponent: float = -10.0,
    upper_exponent: float = 10.0,
    n_bin_edges: int = 101,
):
    chex.assert_scalar_positive(n_bin_edges)
    bins = jnp.linspace(lower_exponent, upper_exponent, n_bin_edges)
    return jnp.sign(bins) * (jnp.exp(jnp.abs(bins)) - 1.0)  # symexp


def two_hot_encoding(bins: jnp.ndarray, x: jnp.ndarray) -> jnp.ndarray:
    diff = x[:, jnp.newaxis] - bins[jnp.newaxis]
    diff = diff - 1e8 * (jnp.sign(diff) - 1)
    ind_lo = jnp.argmin(diff, 1, keepdims=False)
    ind_up = jnp.clip(ind_lo + 1, 0, bins.shape[0] - 1)

    lower = bins[ind_lo]
    upper = bins[ind_up]
    weight = (x - lower) / (upper - lower)

    two_hot = jnp.zeros((x.shape[0], bins.shape[0]))
    two_hot = two_hot.at[jnp.arange(x.shape[0]), ind_lo].set(1.0 - weight)
    two_hot = two_hot.at[jnp.arange(x.shape[0]), ind_up].set(weight)
    return two_hot


def two_hot_decoding(
    bins: jnp.ndarray, two_hot_encoded: jnp.ndarray
) -> jnp.ndarray:
    return jnp.sum(two_hot_encoded * bins, axis=-1)


def two_hot_cross_entropy_loss(
    bins: jnp.ndarray, logits: jnp.ndarray, target: jnp.ndarray
) -> jnp.ndarray:
    log_pred = jax.nn.log_softmax(logits, axis=-1)
    target = two_hot_encoding(bins, target)
    return -jnp.sum(target * log_pred, axis=-1)



# --- rl_blox/algorithm/mrq.py ---
mrq_kernel_init = jax.nn.initializers.variance_scaling(
    scale=2, mode="fan_avg", distribution="uniform"
)


class LayerNormMLP(nnx.Module):

    n_outputs: int
    """Number of output components."""

    activation: Callable[[jnp.ndarray], jnp.ndarray]
    """Activation function."""

    hidden_layers: list[nnx.Linear]
    """Hidden layers."""

    layer_norms: list[nnx.LayerNorm]
    """Layer normalization layers for hidden layers."""

    output_layer: nnx.Linear
    """Output layer."""

    def __init__(
        self,
        n_features: int,
        n_outputs: int,
        hidden_nodes: list[int],
        activation: str,
        rngs: nnx.Rngs,
    ):
        chex.assert_scalar_positive(n_features)
        chex.assert_scalar_positive(n_outputs)

        self.n_outputs = n_outputs
        self.activation = getattr(nnx, activation)

        self.hidden_layers = nnx.List()  # scaffolding: flax 0.12 needs nnx.List for lists of modules
        self.layer_norms = nnx.List()  # scaffolding: idem
        n_in = n_features
        for n_out in hidden_nodes:
            self.hidden_layers.append(
                nnx.Linear(n_in, n_out, rngs=rngs, kernel_init=mrq_kernel_init)
            )
            self.layer_norms.append(
                nnx.LayerNorm(num_features=n_out, rngs=rngs)
            )
            n_in = n_out

        self.output_layer = nnx.Linear(
            n_in,
            n_outputs,
            rngs=rngs,
            kernel_init=mrq_kernel_init,
        )

    def __call__(self, x: jnp.ndarray) -> jnp.ndarray:
        for layer, norm in zip(
            self.hidden_layers, self.layer_norms, strict=True
        ):
            x = self.activation(norm(layer(x)))
        return self.output_layer(x)


class Encoder(nnx.Module):

    zs: LayerNormMLP
    """Maps observations to latent state representations (nonlinear)."""

    za: nnx.Linear
    """Maps actions to latent action representations (linear)."""

    zsa: LayerNormMLP
    """Maps zs and za to latent state-action representations (nonlinear)."""

    model: nnx.Linear
    """Maps zsa to done flag, next latent state (zs), and reward (linear)."""

    zs_dim: int
    """Dimension of the latent state representation."""

    activation: Callable[[jnp.ndarray], jnp.ndarray]
    """Activation function."""

    zs_layer_norm: nnx.LayerNorm
    """Layer normalization for the latent state representation."""

    def __init__(
        self,
        n_state_features: int,
        n_action_features: int,
        n_bins: int,
        zs_dim: int,
        za_dim: int,
        zsa_dim: int,
        hidden_nodes: list[int],
        activation: str,
        rngs: nnx.Rngs,
    ):
        self.zs = LayerNormMLP(
            n_state_features,
            zs_dim,
            hidden_nodes,
            activation,
            rngs=rngs,
        )
        self.za = nnx.Linear(
            n_action_features, za_dim, rngs=rngs, kernel_init=mrq_kernel_init
        )
        self.zsa = LayerNormMLP(
            zs_dim + za_dim,
            zsa_dim,
            hidden_nodes,
            activation,
            rngs=rngs,
        )
        self.model = nnx.Linear(
            zsa_dim, n_bins + zs_dim + 1, rngs=rngs, kernel_init=mrq_kernel_init
        )
        self.zs_dim = zs_dim
        self.activation = getattr(nnx, activation)
        self.zs_layer_norm = nnx.LayerNorm(num_features=zs_dim, rngs=rngs)

    def encode_zsa(self, zs: jnp.ndarray, action: jnp.ndarray) -> jnp.ndarray:
        # Difference to original implementation! The original implementation
        # scales actions to [-1, 1]. We do not scale the actions here.
        za = self.activation(self.za(action))
        return self.zsa(jnp.concatenate((zs, za), axis=-1))

    def encode_zs(self, observation: jnp.ndarray) -> jnp.ndarray:
        return self.activation(self.zs_layer_norm(self.zs(observation)))

    def model_head(
        self, zs: jnp.ndarray, action: jnp.ndarray
    ) -> tuple[jnp.ndarray, jnp.ndarray, jnp.ndarray]:
        zsa = self.encode_zsa(zs, action)
        dzr = self.model(zsa)
        done = dzr[:, 0]
        next_zs = dzr[:, 1 : 1 + self.zs_dim]
        reward = dzr[:, 1 + self.zs_dim :]
        return done, next_zs, reward


def masked_mse_loss(
    predictions: jnp.ndarray, targets: jnp.ndarray, mask: jnp.ndarray
) -> float:
    return jnp.mean(
        optax.squared_error(predictions=predictions, targets=targets)
        * mask[:, jnp.newaxis]
    )


@partial(
    nnx.jit,
    static_argnames=(
        "encoder_horizon",
        "dynamics_weight",
        "reward_weight",
        "done_weight",
        "environment_terminates",
        "target_delay",
        "batch_size",
    ),
)
def update_encoder(
    encoder: Encoder,
    encoder_target: Encoder,
    encoder_optimizer: nnx.Optimizer,
    the_bins: jnp.ndarray,
    batches: tuple[jnp.ndarray],
    encoder_horizon: int,
    dynamics_weight: float,
    reward_weight: float,
    done_weight: float,
    environment_terminates: bool,
    target_delay: int,
    batch_size: int,
) -> jnp.ndarray:
    @nnx.scan(in_axes=(nnx.Carry, 0), out_axes=(nnx.Carry, 0, 0, 0, 0, 0))
    def update(args, batch):
        encoder, encoder_optimizer = args
        (
            loss,
            (dynamics_loss, reward_loss, done_loss, reward_mse),
        ), grads = nnx.value_and_grad(encoder_loss, argnums=0, has_aux=True)(
            encoder,
            encoder_target,
            the_bins,
            batch,
            encoder_horizon,
            dynamics_weight,
            reward_weight,
            done_weight,
            environment_terminates,
        )
        encoder_optimizer.update(grads)
        return (
            (encoder, encoder_optimizer),
            loss,
            dynamics_loss,
            reward_loss,
            done_loss,
            reward_mse,
        )

    # resize batches to (target_delay, batch_size, ...)
    batches = jax.tree_util.tree_map(
        lambda x: x.reshape(target_delay, batch_size, *x.shape[1:]),
        batches,
    )
    _, loss, dynamics_loss, reward_loss, done_loss, reward_mse = update(
        (encoder, encoder_optimizer),
        batches,
    )
    losses = jnp.vstack(
        (loss, dynamics_loss, reward_loss, done_loss, reward_mse)
    )
    return jnp.mean(losses, axis=1)


def encoder_loss(
    encoder: Encoder,
    encoder_target: Encoder,
    the_bins: jnp.ndarray,
    batch: tuple[jnp.ndarray],
    encoder_horizon: int,
    dynamics_weight: float,
    reward_weight: float,
    done_weight: float,
    environment_terminates: bool,
) -> tuple[float, tuple[float, float, float, float]]:
    flat_next_observation = batch.next_observation.reshape(
        -1, *batch.next_observation.shape[2:]
    )
    flat_next_zs = jax.lax.stop_gradient(
        encoder_target.zs(flat_next_observation)
    )
    next_zs = flat_next_zs.reshape(
        list(batch.next_observation.shape[:2]) + [-1]
    )
    pred_zs_t = encoder.encode_zs(batch.observation[:, 0])
    not_done = 1 - batch.terminated
    # in subtrajectories with termination mask, mask out losses
    # after termination
    prev_not_done = jnp.ones_like(not_done[:, 0])

    @nnx.scan(
        in_axes=(nnx.Carry, None, None, None, None, None, None, 0),
        out_axes=(nnx.Carry, 0, 0, 0, 0),
    )
    def model_rollout(
        zs_t_and_prev_not_done,
        encoder,
        the_bins,
        batch,
        next_zs,
        not_done,
        environment_terminates,
        t,
    ):
        pred_zs_t, prev_not_done = zs_t_and_prev_not_done

        pred_done_t, pred_zs_t, pred_reward_logits_t = encoder.model_head(
            pred_zs_t, batch.action[:, t]
        )

        target_zs_t = next_zs[:, t]
        target_reward_t = batch.reward[:, t]
        target_done_t = batch.terminated[:, t]
        dynamics_loss = masked_mse_loss(pred_zs_t, target_zs_t, prev_not_done)
        reward_loss = jnp.mean(
            two_hot_cross_entropy_loss(
                the_bins, pred_reward_logits_t, target_reward_t
            )
            * prev_not_done
        )
        pred_reward_t = two_hot_decoding(
            the_bins, jax.nn.softmax(pred_reward_logits_t)
        )
        reward_mse = masked_mse_loss(
            pred_reward_t, target_reward_t, prev_not_done
        )
        done_loss = jnp.where(
            environment_terminates,
            masked_mse_loss(pred_done_t, target_done_t, prev_not_done),
            0.0,
        )

        # Update termination mask
        prev_not_done = not_done[:, t] * prev_not_done

        return (
            (pred_zs_t, prev_not_done),
            dynamics_loss,
            reward_loss,
            done_loss,
            reward_mse,
        )

    _, dynamics_loss, reward_loss, done_loss, reward_mse = model_rollout(
        (pred_zs_t, prev_not_done),
        encoder,
        the_bins,
        batch,
        next_zs,
        not_done,
        environment_terminates,
        jnp.arange(encoder_horizon),
    )

    dynamics_loss = jnp.sum(dynamics_loss)
    reward_loss = jnp.sum(reward_loss)
    done_loss = jnp.sum(done_loss)
    reward_mse = jnp.sum(reward_mse)

    total_loss = (
        dynamics_weight * dynamics_loss
        + reward_weight * reward_loss
        + done_weight * done_loss
    )

    return total_loss, (dynamics_loss, reward_loss, done_loss, reward_mse)



# scaffolding: the encoder update of train_mrq, with a random replay sample in place of EpisodicReplayBuffer
Batch = namedtuple("Batch", ["observation", "action", "reward", "next_observation", "terminated"])  # scaffolding
n_obs, n_act, encoder_horizon, target_delay, batch_size = 3, 2, 2, 2, 4  # scaffolding: small sizes
the_bins = make_two_hot_bins()  # scaffolding
rngs = nnx.Rngs(0)  # scaffolding
def _encoder():  # scaffolding: create_mrq_state with small widths
    return Encoder(n_obs, n_act, the_bins.shape[0], 8, 4, 8, [16], "elu", rngs=rngs)  # scaffolding
encoder, encoder_target = _encoder(), _encoder()  # scaffolding
encoder_optimizer = nnx.ModelAndOptimizer(encoder, optax.adamw(1e-4))  # scaffolding: flax 0.12 keeps update(grads) here
key = jax.random.PRNGKey(0)  # scaffolding
calls = 0  # scaffolding
try:  # scaffolding
    for epoch in range(3):  # scaffolding
        key, k1, k2 = jax.random.split(key, 3)  # scaffolding
        n = batch_size * target_delay  # scaffolding
        batches = Batch(jax.random.normal(k1, (n, encoder_horizon, n_obs)), jax.random.normal(k2, (n, encoder_horizon, n_act)),
                        jnp.ones((n, encoder_horizon)), jax.random.normal(k1, (n, encoder_horizon, n_obs)),
                        jnp.zeros((n, encoder_horizon)))  # scaffolding
        losses = update_encoder(
            encoder,
            encoder_target,
            encoder_optimizer,
            the_bins,
            batches,
            encoder_horizon,
            1.0,
            0.1,
            0.1,
            True,
            target_delay,
            batch_size,
        )
        calls += 1  # scaffolding
    _report({"jit(update_encoder)"}, calls)  # scaffolding
except Exception as err:  # scaffolding
    print(f"ERROR {type(err).__name__}")  # scaffolding
