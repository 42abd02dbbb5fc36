# source: https://github.com/RunnersNum40/lerax/commit/663e29f5485b1fecf2d6d11ab3d21f8b8e61f783
# expect: shape-churn at line 97
# runtime: COMPILES 3 CALLS 4
# why: The policy's log_std leaf is built from the Python float log_std_init (jnp.full / jnp.array without dtype), so it is weakly typed; after the first optax update it comes back strongly typed, and the weak-typed optimizer state follows a step later, so the filter_jit'd update re-traces and re-compiles on the second and third calls; the commit ('Fix weak typing') adds dtype=float.

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
from typing import cast

import equinox as eqx
import jax
import optax
from jax import numpy as jnp
from jax import random as jr
from jaxtyping import Array, Float, Integer, Key, Real

AbstractDistribution = list  # scaffolding: oryx.distribution types (subscriptable stand-in)
Categorical = None  # scaffolding
SquashedMultivariateNormalDiag = None  # scaffolding
SquashedNormal = None  # scaffolding
AbstractEnvLike = object  # scaffolding
FeatureType = ActType = ObsType = Array  # scaffolding: the class's type parameters


class Box(eqx.Module):  # scaffolding: shape-only stand-in for oryx.space.Box
    shape: tuple = eqx.field(static=True)


class Discrete(eqx.Module):  # scaffolding: stand-in for oryx.space.Discrete
    n: int = eqx.field(static=True)


class MLP(eqx.Module):  # scaffolding: stands in for oryx.model.MLP (eqx.nn.MLP, "scalar" output allowed)
    mlp: eqx.nn.MLP

    def __init__(self, in_size, out_size, width_size, depth, *, key):
        self.mlp = eqx.nn.MLP(in_size, out_size, width_size, depth, key=key)

    def __call__(self, x):
        return self.mlp(x)


class MLPActorCriticPolicy(eqx.Module):  # (PEP 695 type parameters and the AbstractActorCriticPolicy base dropped: Python 3.11)
    """
    Actor–critic policy with MLP components.
    """

    action_space: Box | Discrete
    observation_space: Box | Discrete

    feature_extractor: MLP
    value_model: MLP
    action_model: MLP
    log_std: Float[Array, " action_size"]

    def __init__(
        self,
        env: AbstractEnvLike,  # (type arguments dropped)
        *,
        feature_size: int = 64,
        feature_width: int = 64,
        feature_depth: int = 0,
        value_width: int = 64,
        value_depth: int = 2,
        action_width: int = 64,
        action_depth: int = 2,
        log_std_init: float = 0.0,
        key: Key,
    ):
        if isinstance(env.action_space, Discrete):
            act_size = int(env.action_space.n)
            self.log_std = jnp.array([])
        elif isinstance(env.action_space, Box):
            if env.action_space.shape:
                act_size = int(jnp.prod(jnp.asarray(env.action_space.shape)))
                self.log_std = jnp.full((act_size,), log_std_init)
            else:
                act_size = "scalar"
                self.log_std = jnp.array(log_std_init)
        else:
            raise NotImplementedError(
                f"Action space {type(env.action_space)} not supported."
            )

        if isinstance(env.observation_space, Discrete):
            obs_size = int(env.observation_space.n)
        elif isinstance(env.observation_space, Box):
            obs_size = int(jnp.prod(jnp.asarray(env.observation_space.shape)))
        else:
            raise NotImplementedError(
                f"Observation space {type(env.observation_space)} not supported."
            )

        self.action_space = env.action_space
        self.observation_space = env.observation_space

        feat_key, val_key, act_key = jr.split(key, 3)

        self.feature_extractor = MLP(
            in_size=obs_size,
            out_size=feature_size,
            width_size=feature_width,
            depth=feature_depth,
            key=feat_key,
        )

        self.value_model = MLP(
            in_size=feature_size,
            out_size="scalar",
            width_size=value_width,
            depth=value_depth,
            key=val_key,
        )

        self.action_model = MLP(
            in_size=feature_size,
            out_size=act_size,
            width_size=action_width,
            depth=action_depth,
            key=act_key,
        )

    def extract_features(
        self, state: eqx.nn.State, observation: ObsType
    ) -> tuple[eqx.nn.State, FeatureType]:
        """Extract features from an observation."""
        features = self.feature_extractor(jnp.ravel(observation))
        return state, cast(FeatureType, features)

    def action_dist_from_features(
        self, state: eqx.nn.State, features: FeatureType
    ) -> tuple[
        eqx.nn.State,
        AbstractDistribution[ActType],
    ]:
        """Return an action distribution from features."""
        action_mean = self.action_model(features)

        if isinstance(self.action_space, Discrete):
            action_dist: AbstractDistribution[ActType] = cast(
                AbstractDistribution[ActType],
                Categorical(logits=action_mean),
            )
        elif isinstance(self.action_space, Box):
            if self.action_space.shape == ():
                base_dist = SquashedNormal(
                    loc=action_mean,
                    scale=jnp.exp(self.log_std),
                )
            else:
                base_dist = SquashedMultivariateNormalDiag(
                    loc=action_mean,
                    scale_diag=jnp.exp(self.log_std),
                )
            action_dist = cast(AbstractDistribution[ActType], base_dist)
        else:
            raise NotImplementedError(
                f"Action space {type(self.action_space)} not supported."
            )

        return state, action_dist

    def value_from_features(
        self, state: eqx.nn.State, features: FeatureType
    ) -> tuple[eqx.nn.State, Float[Array, ""]]:
        """Return a value from features."""
        value = self.value_model(features)
        return state, value


class Env:  # scaffolding: a continuous-control env description (3-dim observation, 2-dim action)
    observation_space = Box((3,))
    action_space = Box((2,))


def gaussian_log_prob(mean, log_std, x):  # scaffolding: unsquashed Gaussian instead of SquashedMultivariateNormalDiag
    return jnp.sum(-0.5 * ((x - mean) / jnp.exp(log_std)) ** 2 - log_std, -1)


def loss_fn(policy, obs, actions):  # scaffolding: a behaviour-cloning style loss through the policy
    _, feats = jax.vmap(policy.extract_features, in_axes=(None, 0))(None, obs)
    mean = jax.vmap(policy.action_model)(feats)
    return -jnp.mean(gaussian_log_prob(mean, policy.log_std, actions))


optimizer = optax.adam(3e-4)  # (oryx's PPO uses optax.inject_hyperparams(optax.adam)(3e-4))


@eqx.filter_jit
def update(policy, opt_state, obs, actions):  # scaffolding: stands in for the PPO train step
    loss, grads = eqx.filter_value_and_grad(loss_fn)(policy, obs, actions)
    updates, opt_state = optimizer.update(grads, opt_state, eqx.filter(policy, eqx.is_array))
    policy = eqx.apply_updates(policy, updates)
    return policy, opt_state, loss


policy = MLPActorCriticPolicy(Env(), key=jr.PRNGKey(0))
opt_state = optimizer.init(eqx.filter(policy, eqx.is_array))  # scaffolding
obs = jr.normal(jr.PRNGKey(1), (64, 3))  # scaffolding
actions = jr.normal(jr.PRNGKey(2), (64, 2))  # scaffolding
for it in range(4):  # scaffolding: four updates
    policy, opt_state, loss = update(policy, opt_state, obs, actions)
_report({"jit(update)"}, 4)  # scaffolding
