# source: https://github.com/m-wojnar/reinforced-lib/commit/e55c6198f448a5251db075cc22f4c02374abc86c
# expect: trace-time-error at line 611
# runtime: ERROR TracerBoolConversionError
# why: QLearning.update branches with a Python 'if experience_replay.is_ready(replay_buffer):' on the buffer size; when update is traced as a whole (jit, or BaseAgent.export's TFLite conversion) the buffer is traced and the if raises TracerBoolConversionError.
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



from abc import ABC, abstractmethod
from copy import deepcopy
from functools import partial
from typing import Callable

# import gymnasium as gym  # scaffolding: gymnasium is not installed; only the cut space helpers use it
import haiku as hk
import jax
import jax.numpy as jnp
import optax
from chex import dataclass, Array, ArrayTree, Numeric, PRNGKey, Scalar, Shape


# ---- reinforced_lib/utils/jax_utils.py ----
def gradient_step(
        objective: any,
        loss_params: tuple,
        opt_state: optax.OptState,
        optimizer: optax.GradientTransformation,
        loss_fn: Callable
) -> tuple[any, any, optax.OptState, Scalar]:
    """
    Performs a gradient step on the objective with respect to ``grad_loss_fn`` function.
    ``grad_loss_fn`` should return tuple of ``(loss, aux)`` where loss is the value to be minimized
    and aux is auxiliary value to be returned (can be ``None``).

    Parameters
    ----------
    objective : any
        Objective to be optimized.
    loss_params : tuple
        Parameters to pass to ``loss_fn``.
    opt_state : optax.OptState
        Optimizer state.
    optimizer : optax.GradientTransformation
        Optimizer to use for gradient step.
    loss_fn : Callable
        Function that returns the loss to be minimized. Can return additional values as well.

    Returns
    -------
    out : tuple[any, any, optax.OptState, Scalar]
        Tuple containing the updated objective and optimizer state, as well as the loss value.
    """

    (loss, aux), grads = jax.value_and_grad(loss_fn, has_aux=True)(objective, *loss_params)
    updates, opt_state = optimizer.update(grads, opt_state)
    objective = optax.apply_updates(objective, updates)

    return objective, aux, opt_state, loss


# ---- reinforced_lib/utils/experience_replay.py ----
@dataclass
class ExperienceReplay:
    """
    Container for experience replay buffer functions.

    Attributes
    ----------
    init : Callable
        Function that initializes the replay buffer.
    append : Callable
        Function that appends a new values to the replay buffer.
    sample : Callable
        Function that samples a batch from the replay buffer.
    is_ready : Callable
        Function that checks if the replay buffer is ready to be sampled.
    """

    init: Callable
    append: Callable
    sample: Callable
    is_ready: Callable


@dataclass
class ReplayBuffer:
    """
    Dataclass containing the replay buffer values. The replay buffer is implemented as a circular buffer.

    Attributes
    ----------
    states : array_like
        Array containing the states.
    actions : array_like
        Array containing the actions.
    rewards : array_like
        Array containing the rewards.
    terminals : array_like
        Array containing the terminal flags.
    next_states : array_like
        Array containing the next states.
    size : int
        Current size of the replay buffer.
    ptr : int
        Current pointer of the replay buffer.
    """

    states: Array
    actions: Array
    rewards: Array
    terminals: Array
    next_states: Array
    size: jnp.int32
    ptr: jnp.int32


def experience_replay(
        buffer_size: jnp.int32,
        batch_size: jnp.int32,
        obs_space_shape: Shape,
        act_space_shape: Shape
) -> ExperienceReplay:
    """
    Experience replay buffer used for off-policy learning. Improves the stability of the learning process
    by reducing the correlation between the samples and enables an agent to learn from past experiences.

    Parameters
    ----------
    buffer_size : int
        Maximum size of the replay buffer.
    batch_size : int
        Size of the batch to be sampled from the replay buffer.
    obs_space_shape : Shape
        Shape of the observation space.
    act_space_shape : Shape
        Shape of the action space.

    Returns
    -------
    out : ExperienceReplay
        Container for experience replay buffer functions.
    """

    def init() -> ReplayBuffer:
        """
        Initializes the replay buffer with empty arrays.

        Returns
        -------
        buffer : ReplayBuffer
            Dataclass containing the replay buffer values.
        """

        return ReplayBuffer(
            states=jnp.empty((buffer_size, *obs_space_shape)),
            actions=jnp.empty((buffer_size, *act_space_shape)),
            rewards=jnp.empty((buffer_size, 1)),
            terminals=jnp.empty((buffer_size, 1), dtype=jnp.bool_),
            next_states=jnp.empty((buffer_size, *obs_space_shape)),
            size=0,
            ptr=0
        )

    def append(
            buffer: ReplayBuffer,
            state: Numeric,
            action: Numeric,
            reward: Scalar,
            terminal: jnp.bool_,
            next_state: Numeric
    ) -> ReplayBuffer:
        """
        Appends a new values to the replay buffer.

        Parameters
        ----------
        buffer : ReplayBuffer
            Dataclass containing the replay buffer values.
        state : array_like
            State of the environment.
        action : array_like
            Action taken by the agent.
        reward : float
            Reward received by the agent.
        terminal : bool
            Flag indicating if the episode has terminated.
        next_state : array_like
            Next state of the environment.

        Returns
        -------
        buffer : ReplayBuffer
            Updated replay buffer.
        """

        return ReplayBuffer(
            states=buffer.states.at[buffer.ptr].set(state),
            actions=buffer.actions.at[buffer.ptr].set(action),
            rewards=buffer.rewards.at[buffer.ptr].set(reward),
            terminals=buffer.terminals.at[buffer.ptr].set(terminal),
            next_states=buffer.next_states.at[buffer.ptr].set(next_state),
            size=jax.lax.min(buffer.size + 1, buffer_size),
            ptr=(buffer.ptr + 1) % buffer_size
        )

    def sample(buffer: ReplayBuffer, key: PRNGKey) -> tuple:
        """
        Samples a batch from the replay buffer (there may be duplicates!).

        Parameters
        ----------
        buffer : ReplayBuffer
            Dataclass containing the replay buffer values.
        key : PRNGKey
            Pseudo-random number generator key.

        Returns
        -------
        batch : tuple
            Tuple containing the batch of states, actions, rewards, terminals and next states.
        """

        idxs = jax.random.uniform(key, shape=(batch_size,), minval=0, maxval=buffer.size).astype(jnp.int32)

        states = buffer.states[idxs]
        actions = buffer.actions[idxs]
        rewards = buffer.rewards[idxs]
        terminals = buffer.terminals[idxs]
        next_states = buffer.next_states[idxs]

        return states, actions, rewards, terminals, next_states

    def is_ready(buffer: ReplayBuffer) -> jnp.bool_:
        """
        Checks if the replay buffer is ready to be sampled (contains at least ``batch_size`` elements).

        Parameters
        ----------
        buffer : ReplayBuffer
            Dataclass containing the replay buffer values.

        Returns
        -------
        ready : bool
            Flag indicating if the replay buffer is ready to be sampled.
        """

        return buffer.size >= batch_size

    return ExperienceReplay(
        init=jax.jit(init),
        append=jax.jit(append),
        sample=jax.jit(sample),
        is_ready=jax.jit(is_ready)
    )


# ---- reinforced_lib/agents/base_agent.py (export and space helpers cut) ----
@dataclass
class AgentState:
    """
    Base class for agent state containers.
    """


class BaseAgent(ABC):
    """
    Base interface of agents.
    """

    @staticmethod
    @abstractmethod
    def init(key: PRNGKey, *args, **kwargs) -> AgentState:
        """
        Creates and initializes instance of the agent.
        """

        pass

    @staticmethod
    @abstractmethod
    def update(state: AgentState, key: PRNGKey, *args, **kwargs) -> AgentState:
        """
        Updates the state of the agent after performing some action and receiving a reward.
        """

        pass

    @staticmethod
    @abstractmethod
    def sample(state: AgentState, key: PRNGKey, *args, **kwargs) -> any:
        """
        Selects the next action based on the current agent state.
        """

        pass


# ---- reinforced_lib/agents/deep/q_learning.py ----
@dataclass
class QLearningState(AgentState):
    r"""
    Container for the state of the deep Q-learning agent.

    Attributes
    ----------
    params : hk.Params
        Parameters of the Q-network.
    state : hk.State
        State of the Q-network.
    opt_state : optax.OptState
        Optimizer state.
    replay_buffer : ReplayBuffer
        Experience replay buffer.
    prev_env_state : Array
        Previous environment state.
    epsilon : Scalar
        :math:`\epsilon`-greedy parameter.
    """

    params: hk.Params
    state: hk.State
    opt_state: optax.OptState

    replay_buffer: ReplayBuffer
    prev_env_state: Array
    epsilon: Scalar


class QLearning(BaseAgent):
    r"""
    Deep Q-learning agent [6]_ with :math:`\epsilon`-greedy exploration and experience replay buffer. The agent uses
    a deep neural network to approximate the Q-value function. The Q-network is trained to minimize the Bellman
    error. This agent follows the on-policy learning paradigm and is suitable for environments with discrete action
    spaces.

    Parameters
    ----------
    q_network : hk.TransformedWithState
        Architecture of the Q-network.
    obs_space_shape : Shape
        Shape of the observation space.
    act_space_size : jnp.int32
        Size of the action space.
    optimizer : optax.GradientTransformation, optional
        Optimizer of the Q-network. If None, the Adam optimizer with learning rate 1e-3 is used.
    experience_replay_buffer_size : jnp.int32, default=10000
        Size of the experience replay buffer.
    experience_replay_batch_size : jnp.int32, default=64
        Batch size of the samples from the experience replay buffer.
    experience_replay_steps : jnp.int32, default=5
        Number of experience replay steps per update.
    discount : Scalar, default=0.99
        Discount factor. :math:`\gamma = 0.0` means no discount, :math:`\gamma = 1.0` means infinite discount. :math:`0 \leq \gamma \leq 1`
    epsilon : Scalar, default=1.0
        Initial :math:`\epsilon`-greedy parameter. :math:`0 \leq \epsilon \leq 1`.
    epsilon_decay : Scalar, default=0.999
        Epsilon decay factor. :math:`\epsilon_{t+1} = \epsilon_{t} * \epsilon_{decay}`. :math:`0 \leq \epsilon_{decay} \leq 1`.
    epsilon_min : Scalar, default=0.01
        Minimum :math:`\epsilon`-greedy parameter. :math:`0 \leq \epsilon_{min} \leq \epsilon`.

    References
    ----------
    .. [6] Mnih, V., Kavukcuoglu, K., Silver, D., Graves, A., Antonoglou, I., Wierstra, D. & Riedmiller, M. (2013).
       Playing Atari with Deep Reinforcement Learning.
    """

    def __init__(
            self,
            q_network: hk.TransformedWithState,
            obs_space_shape: Shape,
            act_space_size: jnp.int32,
            optimizer: optax.GradientTransformation = None,
            experience_replay_buffer_size: jnp.int32 = 10000,
            experience_replay_batch_size: jnp.int32 = 64,
            experience_replay_steps: jnp.int32 = 5,
            discount: Scalar = 0.99,
            epsilon: Scalar = 1.0,
            epsilon_decay: Scalar = 0.999,
            epsilon_min: Scalar = 0.001
    ) -> None:

        assert experience_replay_buffer_size > experience_replay_batch_size > 0
        assert 0.0 <= discount <= 1.0
        assert 0.0 <= epsilon <= 1.0
        assert 0.0 <= epsilon_decay <= 1.0

        if optimizer is None:
            optimizer = optax.adam(1e-3)

        self.obs_space_shape = obs_space_shape if jnp.ndim(obs_space_shape) > 0 else (obs_space_shape,)
        self.act_space_size = act_space_size

        er = experience_replay(
            experience_replay_buffer_size,
            experience_replay_batch_size,
            self.obs_space_shape,
            (1,)
        )

        self.init = jax.jit(partial(
            self.init,
            obs_space_shape=self.obs_space_shape,
            q_network=q_network,
            optimizer=optimizer,
            experience_replay=er,
            epsilon=epsilon
        ))
        self.update = partial(
            self.update,
            step_fn=jax.jit(partial(
                gradient_step,
                optimizer=optimizer,
                loss_fn=partial(self.loss_fn, q_network=q_network, discount=discount)
            )),
            experience_replay=er,
            experience_replay_steps=experience_replay_steps,
            epsilon_decay=epsilon_decay,
            epsilon_min=epsilon_min
        )
        self.sample = jax.jit(partial(
            self.sample,
            q_network=q_network,
            act_space_size=act_space_size
        ))

    # (parameter_space and the gymnasium observation/action space properties are cut: gymnasium is not installed)

    @staticmethod
    def init(
            key: PRNGKey,
            obs_space_shape: Shape,
            q_network: hk.TransformedWithState,
            optimizer: optax.GradientTransformation,
            experience_replay: ExperienceReplay,
            epsilon: Scalar
    ) -> QLearningState:
        r"""
        Initializes the Q-network, optimizer and experience replay buffer with given parameters.
        First state of the environment is assumed to be a tensor of zeros.

        Parameters
        ----------
        key : PRNGKey
            A PRNG key used as the random key.
        obs_space_shape : Shape
            The shape of the observation space.
        q_network : hk.TransformedWithState
            The Q-network.
        optimizer : optax.GradientTransformation
            The optimizer.
        experience_replay : ExperienceReplay
            The experience replay buffer.
        epsilon : Scalar
            The initial :math:`\epsilon`-greedy parameter.

        Returns
        -------
        QLearningState
            Initial state of the deep Q-learning agent.
        """

        x_dummy = jnp.empty(obs_space_shape)
        params, state = q_network.init(key, x_dummy)

        opt_state = optimizer.init(params)
        replay_buffer = experience_replay.init()

        return QLearningState(
            params=params,
            state=state,
            opt_state=opt_state,
            replay_buffer=replay_buffer,
            prev_env_state=jnp.zeros(obs_space_shape),
            epsilon=epsilon
        )

    @staticmethod
    def loss_fn(
            params: hk.Params,
            key: PRNGKey,
            net_state: hk.State,
            params_target: hk.Params,
            net_state_target: hk.State,
            batch: tuple,
            q_network: hk.TransformedWithState,
            discount: Scalar
    ) -> tuple[Scalar, hk.State]:
        r"""
        Loss is the mean squared Bellman error :math:`\mathcal{L}(\theta) = \mathbb{E}_{s, a, r, s'} \left[ \left( r +
        \gamma \max_{a'} Q(s', a') - Q(s, a) \right)^2 \right]` where :math:`s` is the current state, :math:`a` is the
        current action, :math:`r` is the reward, :math:`s'` is the next state, :math:`\gamma` is  the discount factor, 
        :math:`Q(s, a)` is the Q-value of the state-action pair. Loss can be calculated on a batch of transitions.

        Parameters
        ----------
        params : hk.Params
            The parameters of the Q-network.
        key : PRNGKey
            A PRNG key used as the random key.
        net_state : hk.State
            The state of the Q-network.
        params_target : hk.Params
            The parameters of the target Q-network.
        net_state_target : hk.State
            The state of the target Q-network.
        batch : tuple
            A batch of transitions from the experience replay buffer.
        q_network : hk.TransformedWithState
            The Q-network.
        discount : Scalar
            The discount factor.

        Returns
        -------
        Tuple[Scalar, hk.State]
            The loss and the new state of the Q-network.
        """

        states, actions, rewards, terminals, next_states = batch
        q_key, q_target_key = jax.random.split(key)

        q_values, state = q_network.apply(params, net_state, q_key, states)
        q_values = jnp.take_along_axis(q_values, actions.astype(jnp.int32), axis=-1)

        q_values_target, _ = q_network.apply(params_target, net_state_target, q_target_key, next_states)
        target = rewards + (1 - terminals) * discount * jnp.max(q_values_target, axis=-1, keepdims=True)

        target = jax.lax.stop_gradient(target)
        loss = optax.l2_loss(q_values, target).mean()

        return loss, state

    @staticmethod
    def update(
            state: QLearningState,
            key: PRNGKey,
            env_state: Array,
            action: Array,
            reward: Scalar,
            terminal: jnp.bool_,
            step_fn: Callable,
            experience_replay: ExperienceReplay,
            experience_replay_steps: jnp.int32,
            epsilon_decay: Scalar,
            epsilon_min: Scalar
    ) -> QLearningState:
        r"""
        Appends the transition to the experience replay buffer and performs ``experience_replay_steps`` steps.
        Each step consists of sampling a batch of transitions from the experience replay buffer, calculating the loss
        using the ``loss_fn`` function and performing a gradient step on the Q-network. The :math:`\epsilon`-greedy
        parameter is decayed by ``epsilon_decay``.

        Parameters
        ----------
        state : QLearningState
            The current state of the deep Q-learning agent.
        key : PRNGKey
            A PRNG key used as the random key.
        env_state : Array
            The current state of the environment.
        action : Array
            The action taken by the agent.
        reward : Scalar
            The reward received by the agent.
        terminal : bool
            Whether the episode has terminated.
        step_fn : Callable
            The function that performs a single gradient step on the Q-network.
        experience_replay : ExperienceReplay
            The experience replay buffer.
        experience_replay_steps : int
            The number of experience replay steps.
        epsilon_decay : Scalar
            The decay rate of the :math:`\epsilon`-greedy parameter.
        epsilon_min : Scalar
            The minimum value of the :math:`\epsilon`-greedy parameter.

        Returns
        -------
        QLearningState
            The updated state of the deep Q-learning agent.
        """

        replay_buffer = experience_replay.append(
            state.replay_buffer, state.prev_env_state,
            action, reward, terminal, env_state
        )

        params, net_state, opt_state = state.params, state.state, state.opt_state

        if experience_replay.is_ready(replay_buffer):
            params_target = deepcopy(params)
            net_state_target = deepcopy(net_state)

            for _ in range(experience_replay_steps):
                batch_key, network_key, key = jax.random.split(key, 3)
                batch = experience_replay.sample(replay_buffer, batch_key)

                loss_params = (network_key, net_state, params_target, net_state_target, batch)
                params, net_state, opt_state, _ = step_fn(params, loss_params, opt_state)

        return QLearningState(
            params=params,
            state=net_state,
            opt_state=opt_state,
            replay_buffer=replay_buffer,
            prev_env_state=env_state,
            epsilon=jax.lax.max(state.epsilon * epsilon_decay, epsilon_min)
        )

    @staticmethod
    def sample(
            state: QLearningState,
            key: PRNGKey,
            env_state: Array,
            q_network: hk.TransformedWithState,
            act_space_size: jnp.int32
    ) -> jnp.int32:
        r"""
        Samples random action with probability :math:`\epsilon` and the greedy action with probability
        :math:`1 - \epsilon`. The greedy action is the action with the highest Q-value.
        
        Parameters
        ----------
        state : QLearningState
            The state of the deep Q-learning agent.
        key : PRNGKey
            A PRNG key used as the random key.
        env_state : Array
            The current state of the environment.
        q_network : hk.TransformedWithState
            The Q-network.
        act_space_size : jnp.int32
            The size of the action space.

        Returns
        -------
        int
            Selected action.
        """

        network_key, epsilon_key, action_key = jax.random.split(key, 3)

        return jax.lax.cond(
            jax.random.uniform(epsilon_key) < state.epsilon,
            lambda: jax.random.choice(action_key, act_space_size),
            lambda: jnp.argmax(q_network.apply(state.params, state.state, network_key, env_state)[0])
        )


# scaffolding: an agent as in the reinforced-lib deep Q-learning examples (CartPole-sized: 4 observations, 2 actions), small buffer
@hk.transform_with_state
def q_network(x: Array) -> Array:  # scaffolding
    return hk.nets.MLP([16, 2])(x)  # scaffolding


agent = QLearning(q_network, obs_space_shape=(4,), act_space_size=2, experience_replay_buffer_size=16, experience_replay_batch_size=4, experience_replay_steps=2)  # scaffolding
key = jax.random.PRNGKey(42)  # scaffolding
state = agent.init(key)  # scaffolding
calls = 0  # scaffolding
try:  # scaffolding
    update = jax.jit(agent.update)  # scaffolding: the JIT/TFLite-export path of commit e55c619 (BaseAgent.export traces agent.update as a whole)
    for t in range(8):  # scaffolding
        key, k_env, k_act, k_upd = jax.random.split(key, 4)  # scaffolding
        env_state = jax.random.normal(k_env, (4,))  # scaffolding
        action = agent.sample(state, k_act, env_state)  # scaffolding
        state = update(state, k_upd, env_state, action, 1.0, t % 5 == 4)  # scaffolding
        calls += 1  # scaffolding
    _report({"jit(update)"}, calls)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
