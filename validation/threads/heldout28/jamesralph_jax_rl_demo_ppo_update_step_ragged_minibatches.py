# source: https://github.com/james-ralph8555/jax-rl-demo/blob/7502810205fc1c8deabe66100b4cfb7cf384f4cc/src/agent/ppo.py
# expect: shape-churn at line 771
# runtime: COMPILES 7 CALLS 18
# why: PPOAgent.update splits each single episode into minibatches of 64 with create_minibatches, whose last minibatch is the ragged remainder, and every episode length gives a new remainder, so the jitted update_step compiles again for each new minibatch size (7 compiles for 18 updates over 8 episodes).
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


# ---- src/agent/utils.py ----
import jax
import jax.numpy as jnp
from typing import Tuple, Dict, Any, Optional


def init_optimizer(
    learning_rate: float = 3e-4
) -> Any:
    """
    Initialize Adam optimizer using Optax.
    
    Args:
        learning_rate: Learning rate for the optimizer
        
    Returns:
        Optax optimizer
    """
    import optax
    
    # Create optimizer with Adam
    optimizer = optax.adam(learning_rate=learning_rate)
    
    return optimizer


def discount_rewards(
    rewards: jnp.ndarray,
    dones: jnp.ndarray,
    gamma: float = 0.99
) -> jnp.ndarray:
    """
    Compute discounted rewards with bootstrapping.
    
    Args:
        rewards: Array of rewards
        dones: Array of episode termination flags
        gamma: Discount factor
        
    Returns:
        Array of discounted rewards
    """
    def _discount_scan(carry, inp):
        reward, done = inp
        new_carry = jnp.where(done, 0.0, carry) * gamma + reward
        return new_carry, new_carry
    
    # Reverse scan for proper discounting
    _, discounted = jax.lax.scan(
        _discount_scan, 
        jnp.zeros_like(rewards[-1]), 
        (rewards, dones),
        reverse=True
    )
    
    return discounted


def compute_gae(
    rewards: jnp.ndarray,
    values: jnp.ndarray,
    dones: jnp.ndarray,
    next_values: jnp.ndarray,
    gamma: float = 0.99,
    lambda_gae: float = 0.95
) -> Tuple[jnp.ndarray, jnp.ndarray]:
    """
    Compute Generalized Advantage Estimation (GAE).
    
    Args:
        rewards: Array of rewards
        values: Array of value predictions
        dones: Array of episode termination flags
        next_values: Array of next state value predictions
        gamma: Discount factor
        lambda_gae: GAE parameter
        
    Returns:
        Tuple of (advantages, returns)
    """
    # Compute TD errors
    td_errors = rewards + gamma * next_values * (1.0 - dones) - values
    
    def _gae_scan(carry, td_error):
        gae = carry * lambda_gae * gamma + td_error
        return gae, gae
    
    # Compute GAE using reverse scan
    _, advantages = jax.lax.scan(
        _gae_scan,
        jnp.zeros_like(td_errors[-1]),
        td_errors,
        reverse=True
    )
    
    # Compute returns
    returns = advantages + values
    
    return advantages, returns


def normalize_advantages(
    advantages: jnp.ndarray,
    epsilon: float = 1e-8
) -> jnp.ndarray:
    """
    Normalize advantages for training stability.
    
    Args:
        advantages: Array of advantages
        epsilon: Small constant to avoid division by zero
        
    Returns:
        Normalized advantages
    """
    mean = jnp.mean(advantages)
    std = jnp.std(advantages)
    
    return (advantages - mean) / (std + epsilon)


def create_minibatches(
    *arrays: jnp.ndarray,
    batch_size: int,
    key: jax.random.PRNGKey
) -> Tuple[Tuple[jnp.ndarray, ...], jax.random.PRNGKey]:
    """
    Create random minibatches from arrays.
    
    Args:
        *arrays: Arrays to batch
        batch_size: Size of each minibatch
        key: PRNG key for shuffling
        
    Returns:
        Tuple of (minibatches, new_key)
    """
    # Get total number of samples
    total_samples = arrays[0].shape[0]
    
    # Shuffle indices
    key, subkey = jax.random.split(key)
    indices = jax.random.permutation(subkey, total_samples)
    
    # Create minibatches
    minibatches = []
    for start_idx in range(0, total_samples, batch_size):
        end_idx = min(start_idx + batch_size, total_samples)
        batch_indices = indices[start_idx:end_idx]
        
        batch = tuple(arr[batch_indices] for arr in arrays)
        minibatches.append(batch)
    
    return tuple(minibatches), key


def compute_ppo_loss(
    action_logits: jnp.ndarray,
    values: jnp.ndarray,
    actions: jnp.ndarray,
    old_log_probs: jnp.ndarray,
    advantages: jnp.ndarray,
    returns: jnp.ndarray,
    clip_epsilon: float = 0.2,
    entropy_coef: float = 0.01,
    value_coef: float = 0.5
) -> Tuple[jnp.ndarray, Dict[str, jnp.ndarray]]:
    """
    Compute PPO loss with policy clipping.
    
    Args:
        action_logits: Action logits from the network
        values: Value predictions from the network
        actions: Actions taken
        old_log_probs: Log probabilities of actions under old policy
        advantages: Advantage estimates
        returns: Return estimates
        clip_epsilon: Clipping parameter for PPO
        entropy_coef: Entropy coefficient
        value_coef: Value function coefficient
        
    Returns:
        Tuple of (total_loss, loss_dict)
    """
    # Compute current log probabilities
    # from .network import evaluate_action, get_entropy  # scaffolding: defined above in this file
    current_log_probs = jax.vmap(evaluate_action)(action_logits, actions)
    
    # Compute entropy
    entropy = jax.vmap(get_entropy)(action_logits)
    
    # Compute policy ratio
    ratio = jnp.exp(current_log_probs - old_log_probs)
    
    # Compute clipped policy loss
    policy_loss_unclipped = ratio * advantages
    policy_loss_clipped = jnp.clip(ratio, 1.0 - clip_epsilon, 1.0 + clip_epsilon) * advantages
    policy_loss = -jnp.minimum(policy_loss_unclipped, policy_loss_clipped).mean()
    
    # Compute value loss
    value_loss = jnp.square(values.squeeze() - returns).mean()
    
    # Compute entropy loss
    entropy_loss = -entropy.mean()
    
    # Compute KL divergence between old and new policies
    kl_divergence = jnp.mean(old_log_probs - current_log_probs)
    
    # Total loss
    total_loss = policy_loss + value_coef * value_loss + entropy_coef * entropy_loss
    
    loss_dict = {
        'policy_loss': policy_loss,
        'value_loss': value_loss,
        'entropy_loss': entropy_loss,
        'total_loss': total_loss,
        'kl_divergence': kl_divergence
    }
    
    return total_loss, loss_dict

# ---- src/agent/network.py ----
import jax
import jax.numpy as jnp
from flax import linen as nn
from typing import Tuple, Optional


class ActorNetwork(nn.Module):
    """Policy network (actor) for PPO agent."""
    
    action_dim: int
    hidden_dims: Tuple[int, ...] = (64, 64)
    
    @nn.compact
    def __call__(self, x: jnp.ndarray) -> jnp.ndarray:
        # Forward pass through hidden layers
        for hidden_dim in self.hidden_dims:
            x = nn.Dense(features=hidden_dim)(x)
            x = nn.tanh(x)
        
        # Output layer for action logits
        action_logits = nn.Dense(features=self.action_dim)(x)
        
        return action_logits


class CriticNetwork(nn.Module):
    """Value network (critic) for PPO agent."""
    
    hidden_dims: Tuple[int, ...] = (64, 64)
    
    @nn.compact
    def __call__(self, x: jnp.ndarray) -> jnp.ndarray:
        # Forward pass through hidden layers
        for hidden_dim in self.hidden_dims:
            x = nn.Dense(features=hidden_dim)(x)
            x = nn.tanh(x)
        
        # Output layer for value
        value = nn.Dense(features=1)(x)
        
        return value


class PPONetwork(nn.Module):
    """Combined actor-critic network for PPO agent."""
    
    action_dim: int
    hidden_dims: Tuple[int, ...] = (64, 64)
    
    def setup(self):
        self.actor = ActorNetwork(action_dim=self.action_dim, hidden_dims=self.hidden_dims)
        self.critic = CriticNetwork(hidden_dims=self.hidden_dims)
    
    def __call__(self, x: jnp.ndarray) -> Tuple[jnp.ndarray, jnp.ndarray]:
        """Forward pass returning both action logits and state value."""
        action_logits = self.actor(x)
        value = self.critic(x)
        return action_logits, value
    
    def actor_forward(self, x: jnp.ndarray) -> jnp.ndarray:
        """Forward pass through actor only."""
        return self.actor(x)
    
    def critic_forward(self, x: jnp.ndarray) -> jnp.ndarray:
        """Forward pass through critic only."""
        return self.critic(x)


def create_networks(
    observation_dim: int,
    action_dim: int,
    hidden_dims: Tuple[int, ...] = (64, 64),
    key: Optional[jax.random.PRNGKey] = None
) -> Tuple[PPONetwork, dict]:
    """
    Create and initialize PPO networks.
    
    Args:
        observation_dim: Dimension of the observation space
        action_dim: Dimension of the action space
        hidden_dims: Tuple of hidden layer dimensions
        key: PRNG key for initialization
        
    Returns:
        Tuple of (network, network_params)
    """
    if key is None:
        key = jax.random.PRNGKey(0)
    
    # Create network
    network = PPONetwork(action_dim=action_dim, hidden_dims=hidden_dims)
    
    # Initialize with dummy input
    dummy_obs = jnp.zeros((1, observation_dim))
    network_params = network.init(key, dummy_obs)
    
    return network, network_params


def sample_action(
    action_logits: jnp.ndarray,
    key: jax.random.PRNGKey
) -> Tuple[jnp.ndarray, jnp.ndarray]:
    """
    Sample action from action logits and return action and log probability.
    
    Args:
        action_logits: Action logits from the network
        key: PRNG key for sampling
        
    Returns:
        Tuple of (action, log_probability)
    """
    # Sample action from categorical distribution
    action = jax.random.categorical(key, action_logits)
    
    # Calculate log probability
    log_probs = jax.nn.log_softmax(action_logits)
    
    # Handle both batched and unbatched inputs
    if action_logits.ndim == 2:
        # Batched input
        batch_idx = jnp.arange(action_logits.shape[0])
        log_prob = log_probs[batch_idx, action]
    else:
        # Unbatched input
        log_prob = log_probs[action]
    
    return action, log_prob


def evaluate_action(
    action_logits: jnp.ndarray,
    action: jnp.ndarray
) -> jnp.ndarray:
    """
    Evaluate log probability of an action given action logits.
    
    Args:
        action_logits: Action logits from the network
        action: Action to evaluate
        
    Returns:
        Log probability of the action
    """
    log_prob = jax.nn.log_softmax(action_logits)
    log_prob = log_prob[action]
    
    return log_prob


def get_entropy(action_logits: jnp.ndarray) -> jnp.ndarray:
    """
    Calculate entropy of the action distribution.
    
    Args:
        action_logits: Action logits from the network
        
    Returns:
        Entropy of the distribution
    """
    log_probs = jax.nn.log_softmax(action_logits)
    probs = jax.nn.softmax(action_logits)
    entropy = -jnp.sum(probs * log_probs, axis=-1)
    
    return entropy

# ---- src/agent/ppo.py ----
"""PPO algorithm implementation"""

import jax
import jax.numpy as jnp
import optax
from typing import Tuple, Dict, Any, Optional
from functools import partial

# from .network import PPONetwork, create_networks  # scaffolding: defined above in this file
# from .utils import init_optimizer, compute_gae, normalize_advantages, create_minibatches, compute_ppo_loss  # scaffolding: defined above in this file


class PPOAgent:
    """Proximal Policy Optimization agent"""
    
    def __init__(
        self,
        observation_dim: int,
        action_dim: int,
        learning_rate: float = 3e-4,
        clip_epsilon: float = 0.2,
        gamma: float = 0.99,
        gae_lambda: float = 0.95,
        entropy_coef: float = 0.01,
        value_coef: float = 0.5,
        max_grad_norm: float = 0.5,
        epochs_per_update: int = 10,
        batch_size: int = 64,
        minibatch_size: int = 64,
        key: Optional[jax.random.PRNGKey] = None
    ):
        """
        Initialize PPO agent
        
        Args:
            observation_dim: Dimension of observation space
            action_dim: Dimension of action space
            learning_rate: Learning rate for optimizer
            clip_epsilon: PPO clipping parameter
            gamma: Discount factor
            gae_lambda: GAE lambda parameter
            entropy_coef: Entropy regularization coefficient
            value_coef: Value function loss coefficient
            max_grad_norm: Maximum gradient norm for clipping
            epochs_per_update: Number of epochs per PPO update
            batch_size: Batch size for collecting experience
            minibatch_size: Mini-batch size for updates
            key: Random key for initialization
        """
        self.observation_dim = observation_dim
        self.action_dim = action_dim
        self.learning_rate = learning_rate
        self.clip_epsilon = clip_epsilon
        self.gamma = gamma
        self.gae_lambda = gae_lambda
        self.entropy_coef = entropy_coef
        self.value_coef = value_coef
        self.max_grad_norm = max_grad_norm
        self.epochs_per_update = epochs_per_update
        self.batch_size = batch_size
        self.minibatch_size = minibatch_size
        
        if key is None:
            key = jax.random.PRNGKey(0)
        
        # Initialize networks and optimizer
        self.network, self.network_params = create_networks(
            observation_dim, action_dim, (64, 64), key
        )
        self.optimizer = init_optimizer(learning_rate)
        self.optimizer_state = self.optimizer.init(self.network_params)
        
        # Training state
        self.key = key
        
    def select_action(
        self, 
        network_params: dict, 
        observation: jnp.ndarray,
        key: jax.random.PRNGKey
    ) -> Tuple[jnp.ndarray, jnp.ndarray, dict]:
        """
        Select action given observation
        
        Args:
            network_params: Network parameters
            observation: Current observation
            key: Random key for sampling
            
        Returns:
            action: Selected action
            log_prob: Log probability of action
            value: Value estimate
        """
        # Forward pass through network
        policy_logits, value = self.network.apply(network_params, observation)
        
        # Sample action from policy
        # from .network import sample_action  # scaffolding: defined above in this file
        action, log_prob = sample_action(policy_logits, key)
        
        return action, log_prob, {"value": value}
    
    def collect_episode(
        self,
        network_params: dict,
        env,
        max_steps: int = 1000,
        key: jax.random.PRNGKey = None
    ) -> Dict[str, jnp.ndarray]:
        """
        Collect one episode of experience
        
        Args:
            network_params: Network parameters
            env: Environment instance
            max_steps: Maximum steps per episode
            key: Random key for action sampling
            
        Returns:
            Dictionary containing episode data
        """
        if key is None:
            key = self.key
            
        observations, actions, rewards, log_probs, values, dones = [], [], [], [], [], []
        
        obs, info = env.reset()
        done = False
        step = 0
        
        while not done and step < max_steps:
            key, subkey = jax.random.split(key)
            
            # Convert observation to JAX array
            obs_jax = jnp.array(obs, dtype=jnp.float32)
            
            # Select action
            action, log_prob, value_info = self.select_action(
                network_params, obs_jax[None, :], subkey
            )
            
            # Take action in environment
            next_obs, reward, terminated, truncated, info = env.step(action.item())
            done = bool(terminated) or bool(truncated)
            
            # Store experience
            observations.append(obs_jax)
            actions.append(jnp.array([action.item()], dtype=jnp.int32))
            rewards.append(jnp.array([reward], dtype=jnp.float32))
            log_probs.append(log_prob)
            values.append(value_info["value"].squeeze())  # Remove extra dimension
            dones.append(jnp.array([done], dtype=jnp.float32))
            
            obs = next_obs
            step += 1
        
        # Convert lists to arrays
        episode_data = {
            "observations": jnp.stack(observations),
            "actions": jnp.concatenate(actions),
            "rewards": jnp.concatenate(rewards),
            "log_probs": jnp.concatenate(log_probs),
            "values": jnp.stack(values),
            "dones": jnp.concatenate(dones)
        }
        
        return episode_data
    
    def compute_advantages_and_returns(
        self,
        rewards: jnp.ndarray,
        values: jnp.ndarray,
        dones: jnp.ndarray,
        next_value: jnp.ndarray = None
    ) -> Tuple[jnp.ndarray, jnp.ndarray]:
        """
        Compute advantages and returns using GAE
        
        Args:
            rewards: Episode rewards
            values: Value estimates
            dones: Done flags
            next_value: Value of next state (0 if terminal)
            
        Returns:
            advantages: Computed advantages
            returns: Computed returns
        """
        # Construct per-timestep next_values by shifting values and appending 0.0
        # This correctly bootstraps with V(s_{t+1}) and zeros out at episode end.
        next_values = jnp.concatenate([values[1:], jnp.array([0.0], dtype=values.dtype)])

        # Compute advantages using GAE with per-timestep next_values
        advantages, _ = compute_gae(
            rewards, values, dones, next_values, self.gamma, self.gae_lambda
        )
        
        # Compute returns
        returns = advantages + values
        
        # Normalize advantages
        advantages = normalize_advantages(advantages)
        
        return advantages, returns
    
    @partial(jax.jit, static_argnums=(0,))
    def update_step(
        self,
        network_params: dict,
        optimizer_state: dict,
        observations: jnp.ndarray,
        actions: jnp.ndarray,
        old_log_probs: jnp.ndarray,
        advantages: jnp.ndarray,
        returns: jnp.ndarray,
        key: jax.random.PRNGKey
    ) -> Tuple[dict, dict, Dict[str, jnp.ndarray]]:
        """
        Single PPO update step
        
        Args:
            network_params: Current network parameters
            optimizer_state: Current optimizer state
            observations: Batch of observations
            actions: Batch of actions
            old_log_probs: Old log probabilities
            advantages: Advantage estimates
            returns: Return estimates
            key: Random key
            
        Returns:
            Updated network parameters
            Updated optimizer state
            Loss statistics
        """
        def loss_fn(params):
            # Forward pass
            policy_logits, values = self.network.apply(params, observations)
            
            # Compute PPO loss
            total_loss, loss_dict = compute_ppo_loss(
                policy_logits, values, actions, old_log_probs, advantages, returns,
                self.clip_epsilon, self.entropy_coef, self.value_coef
            )
            
            policy_loss = loss_dict['policy_loss']
            value_loss = loss_dict['value_loss']
            entropy_loss = loss_dict['entropy_loss']
            kl_divergence = loss_dict['kl_divergence']

            # Compute clip fraction: fraction of samples where |ratio - 1| > clip_epsilon
            # ratio = exp(log_pi_new - log_pi_old)
            # from .network import evaluate_action  # scaffolding: defined above in this file
            current_log_probs = jax.vmap(evaluate_action)(policy_logits, actions)
            ratio = jnp.exp(current_log_probs - old_log_probs)
            clipfrac = jnp.mean((jnp.abs(ratio - 1.0) > self.clip_epsilon).astype(jnp.float32))
            
            return total_loss, {
                "policy_loss": policy_loss,
                "value_loss": value_loss,
                "entropy_loss": entropy_loss,
                "total_loss": total_loss,
                "kl_divergence": kl_divergence,
                "clipfrac": clipfrac
            }
        
        # Compute gradients and loss
        (loss, loss_info), grads = jax.value_and_grad(loss_fn, has_aux=True)(network_params)
        
        # Compute per-layer gradient norms for visualization
        grad_norms = jax.tree_util.tree_map(lambda g: jnp.linalg.norm(g), grads)
        
        # Clip gradients
        grad_norm = optax.global_norm(grads)
        scale = jnp.minimum(1.0, self.max_grad_norm / (grad_norm + 1e-8))
        grads = jax.tree_util.tree_map(lambda g: g * scale, grads)
        
        # Apply optimizer updates
        updates, new_optimizer_state = self.optimizer.update(grads, optimizer_state)
        new_network_params = optax.apply_updates(network_params, updates)
        
        # Add gradient norms to info
        loss_info["grad_norm"] = grad_norm
        loss_info["grad_norms"] = grad_norms
        
        return new_network_params, new_optimizer_state, loss_info
    
    def update(
        self,
        network_params: dict,
        optimizer_state: dict,
        episode_data: Dict[str, jnp.ndarray],
        key: jax.random.PRNGKey
    ) -> Tuple[dict, dict, Dict[str, jnp.ndarray]]:
        """
        Perform PPO update on collected episode data
        
        Args:
            network_params: Current network parameters
            optimizer_state: Current optimizer state
            episode_data: Collected episode data
            key: Random key for minibatch creation
            
        Returns:
            Updated network parameters
            Updated optimizer state
            Training statistics
        """
        observations = episode_data["observations"]
        actions = episode_data["actions"]
        old_log_probs = episode_data["log_probs"]
        values = episode_data["values"]
        rewards = episode_data["rewards"]
        dones = episode_data["dones"]
        
        # Compute advantages and returns
        advantages, returns = self.compute_advantages_and_returns(
            rewards, values, dones
        )
        
        # Flatten data for minibatch processing
        observations = observations.reshape(-1, observations.shape[-1])
        actions = actions.reshape(-1)
        old_log_probs = old_log_probs.reshape(-1)
        advantages = advantages.reshape(-1)
        returns = returns.reshape(-1)
        
        # Training statistics
        total_stats = {
            "policy_loss": 0.0,
            "value_loss": 0.0,
            "entropy_loss": 0.0,
            "total_loss": 0.0,
            "kl_divergence": 0.0,
            "clipfrac": 0.0,
            "grad_norm": 0.0,
            "grad_norms": {},
            "num_updates": 0
        }
        
        # Perform multiple epochs of updates
        for epoch in range(self.epochs_per_update):
            # Create minibatches
            key, subkey = jax.random.split(key)
            minibatches, _ = create_minibatches(
                observations, actions, old_log_probs, advantages, returns,
                batch_size=self.minibatch_size, key=subkey
            )
            
            # Update on each minibatch
            for batch in minibatches:
                batch_obs, batch_actions, batch_old_log_probs, batch_advantages, batch_returns = batch
                
                network_params, optimizer_state, step_stats = self.update_step(
                    network_params, optimizer_state,
                    batch_obs, batch_actions, batch_old_log_probs,
                    batch_advantages, batch_returns, key
                )
                
                # Accumulate statistics
                for key_name in total_stats:
                    if key_name != "num_updates" and key_name != "grad_norms":
                        total_stats[key_name] += step_stats[key_name]
                
                # Handle grad_norms separately (use the last minibatch's grad_norms)
                if "grad_norms" in step_stats:
                    total_stats["grad_norms"] = step_stats["grad_norms"]
                
                total_stats["num_updates"] += 1
        
        # Average statistics (except grad_norms which is kept as-is)
        for key_name in total_stats:
            if key_name != "num_updates" and key_name != "grad_norms":
                total_stats[key_name] /= total_stats["num_updates"]
        
        return network_params, optimizer_state, total_stats
    
    def train_step(
        self,
        network_params: dict,
        optimizer_state: dict,
        env,
        key: jax.random.PRNGKey
    ) -> Tuple[dict, dict, Dict[str, jnp.ndarray]]:
        """
        Complete training step: collect episode and update
        
        Args:
            network_params: Current network parameters
            optimizer_state: Current optimizer state
            env: Environment for training
            key: Random key
            
        Returns:
            Updated network parameters
            Updated optimizer state
            Training statistics
        """
        # Collect episode
        key, subkey = jax.random.split(key)
        episode_data = self.collect_episode(network_params, env, key=subkey)
        
        # Update networks
        key, subkey = jax.random.split(key)
        new_network_params, new_optimizer_state, stats = self.update(
            network_params, optimizer_state, episode_data, subkey
        )
        
        # Add episode statistics
        episode_length = len(episode_data["rewards"])
        episode_reward = jnp.sum(episode_data["rewards"])
        
        stats.update({
            "episode_length": episode_length,
            "episode_reward": episode_reward
        })
        
        return new_network_params, new_optimizer_state, stats


# ---- scaffolding: gymnasium is not installed; a CartPole-shaped stand-in with CartPoleWrapper's interface ----
import numpy as _np  # scaffolding


class _CartPoleStandIn:  # scaffolding: reset -> (obs, info), step -> (obs, reward, terminated, truncated, info); episodes of 20-90 steps
    _rs = _np.random.RandomState(0)  # scaffolding
    def reset(self, seed=None):  # scaffolding
        self._t, self._len = 0, int(self._rs.randint(20, 91))  # scaffolding
        return jnp.array(self._rs.uniform(-0.05, 0.05, 4), dtype=jnp.float32), {}  # scaffolding
    def step(self, action):  # scaffolding
        self._t += 1  # scaffolding
        return jnp.array(self._rs.uniform(-0.05, 0.05, 4), dtype=jnp.float32), 1.0, self._t >= self._len, False, {}  # scaffolding


# scaffolding: the loop of src/training/trainer.py Trainer.train_step, without MLflow
agent = PPOAgent(observation_dim=4, action_dim=2, epochs_per_update=2)  # scaffolding: 2 epochs instead of the default 10
env = _CartPoleStandIn()  # scaffolding
key = jax.random.PRNGKey(0)  # scaffolding
_calls = 0  # scaffolding
try:  # scaffolding
    for _ in range(8):  # scaffolding: 8 episodes
        key, step_key = jax.random.split(key)  # scaffolding
        new_network_params, new_optimizer_state, update_metrics = agent.train_step(  # scaffolding
            agent.network_params, agent.optimizer_state, env, step_key  # scaffolding
        )  # scaffolding
        agent.network_params = new_network_params  # scaffolding
        agent.optimizer_state = new_optimizer_state  # scaffolding
        _calls += update_metrics["num_updates"]  # scaffolding
        print(update_metrics["episode_length"], update_metrics["num_updates"])  # scaffolding
    _report({"jit(update_step)"}, _calls)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
