# source: https://github.com/FLAIROx/JaxMARL/commit/757e9ed2338448b09fdbfe5d31bd104f86a2f713
# expect: none
# runtime: COMPILES 1 CALLS 3
# why: After the commit the tile vectors come from the array OBJECT_INDEX_TO_VEC indexed by the traced object id, so the jitted interact step traces once.

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


from functools import partial

import chex
import jax
import jax.numpy as jnp


# smax/gridworld/common.py after the commit
OBJECT_TO_INDEX = {
    "unseen": 0,
    "empty": 1,
    "wall": 2,
    "onion": 3,
    "onion_pile": 4,
    "plate": 5,
    "plate_pile": 6,
    "goal": 7,
    "pot": 8,
    "dish": 9,
    "agent": 10,
}
COLOR_TO_INDEX = {
    'red'   : 0,
    'green' : 1,
    'blue'  : 2,
    'purple': 3,
    'yellow': 4,
    'grey'  : 5,
    'white' : 6,
    'black' : 7,
}
OBJECT_INDEX_TO_VEC = jnp.array([
    jnp.array([OBJECT_TO_INDEX['unseen'], 0, 0], dtype=jnp.uint8),
    jnp.array([OBJECT_TO_INDEX['empty'], 0, 0], dtype=jnp.uint8),
    jnp.array([OBJECT_TO_INDEX['wall'], COLOR_TO_INDEX['grey'], 0], dtype=jnp.uint8),
    jnp.array([OBJECT_TO_INDEX['onion'], COLOR_TO_INDEX["yellow"], 0], dtype=jnp.uint8),
    jnp.array([OBJECT_TO_INDEX['onion_pile'], COLOR_TO_INDEX["yellow"], 0], dtype=jnp.uint8),
    jnp.array([OBJECT_TO_INDEX['plate'], COLOR_TO_INDEX["white"], 0], dtype=jnp.uint8),
    jnp.array([OBJECT_TO_INDEX['plate_pile'], COLOR_TO_INDEX["white"], 0], dtype=jnp.uint8),
    jnp.array([OBJECT_TO_INDEX['goal'], COLOR_TO_INDEX['green'], 0], dtype=jnp.uint8),
    jnp.array([OBJECT_TO_INDEX['pot'], COLOR_TO_INDEX['black'], 0], dtype=jnp.uint8),
    jnp.array([OBJECT_TO_INDEX['dish'], COLOR_TO_INDEX["white"], 0], dtype=jnp.uint8),
    jnp.array([OBJECT_TO_INDEX['agent'], COLOR_TO_INDEX['red'], 0]),                      # Default color and direction
])


class Overcooked:  # scaffolding: smax/gridworld/overcooked.py reduced to the interact logic
    def __init__(self, agent_view_size=5):
        self.obs_shape = (agent_view_size, agent_view_size, 3)

    # smax/gridworld/overcooked.py after the commit
    def process_interact(
            self,
            maze_map: chex.Array,
            wall_map: chex.Array,
            fwd_pos: chex.Array,
            inventory: chex.Array):
        """Assume agent took interact actions."""
        padding = self.obs_shape[0] - 1

        maze_object_on_table = maze_map.at[padding + fwd_pos[1], padding + fwd_pos[0]].get()
        object_on_table = maze_object_on_table[0]  # Simple index

        object_is_pile = jnp.logical_or(object_on_table == OBJECT_TO_INDEX["plate_pile"], object_on_table == OBJECT_TO_INDEX["onion_pile"])
        object_is_pot = jnp.array(object_on_table == OBJECT_TO_INDEX["pot"])
        object_is_goal = jnp.array(object_on_table == OBJECT_TO_INDEX["goal"])
        object_is_agent = jnp.array(object_on_table == OBJECT_TO_INDEX["agent"])
        object_is_pickable = jnp.logical_or(
            jnp.logical_or(object_on_table == OBJECT_TO_INDEX["plate"], object_on_table == OBJECT_TO_INDEX["onion"]),
            object_on_table == OBJECT_TO_INDEX["dish"]
        )
        is_table = jnp.logical_and(wall_map.at[fwd_pos[1], fwd_pos[0]].get(), ~object_is_pot)

        table_is_empty = jnp.logical_or(object_on_table == OBJECT_TO_INDEX["wall"], object_on_table == OBJECT_TO_INDEX["empty"])
        inv_is_empty = jnp.array(inventory == OBJECT_TO_INDEX["empty"])
        object_in_inv = inventory

        # Interactions with pot
        pot_status = maze_object_on_table[-1]
        holding_onion = jnp.array(object_in_inv == OBJECT_TO_INDEX["onion"])
        holding_plate = jnp.array(object_in_inv == OBJECT_TO_INDEX["plate"])
        holding_dish = jnp.array(object_in_inv == OBJECT_TO_INDEX["dish"])

        # 3 cases: add onion if missing, collect soup if ready, do nothing otherwise
        case_1 = (pot_status > 20) * holding_onion * object_is_pot
        case_2 = (pot_status == 0) * holding_plate * object_is_pot
        case_3 = (pot_status > 0) * (pot_status <= 20) * object_is_pot
        else_case = ~case_1 * ~case_2 * ~case_3
        new_pot_status = \
            case_1 * (pot_status - 1) \
            + case_2 * 23 \
            + case_3 * pot_status \
            + else_case * pot_status
        new_object_in_inv = \
            case_1 * OBJECT_TO_INDEX["empty"] \
            + case_2 * OBJECT_TO_INDEX["dish"] \
            + case_3 * object_in_inv \
            + else_case * object_in_inv

        # Interactions with onion/plate piles and objects on counter
        # Pickup if: table, not empty, room in inv & object is not something unpickable (e.g. pot or goal)
        successful_pickup = is_table * ~table_is_empty * inv_is_empty * jnp.logical_or(object_is_pile, object_is_pickable)
        successful_drop = is_table * table_is_empty * ~inv_is_empty
        successful_delivery = is_table * object_is_goal * holding_dish
        no_effect = jnp.logical_and(jnp.logical_and(~successful_pickup, ~successful_drop), ~successful_delivery)

        new_object_on_table = \
            no_effect * object_on_table \
            + successful_delivery * object_on_table \
            + successful_pickup * object_is_pile * object_on_table \
            + successful_pickup * object_is_pickable * OBJECT_TO_INDEX["wall"] \
            + successful_drop * object_in_inv

        new_object_in_inv = \
            no_effect * new_object_in_inv \
            + successful_delivery * OBJECT_TO_INDEX["empty"] \
            + successful_pickup * object_is_pickable * object_on_table \
            + successful_pickup * (object_on_table == OBJECT_TO_INDEX["plate_pile"]) * OBJECT_TO_INDEX["plate"] \
            + successful_pickup * (object_on_table == OBJECT_TO_INDEX["onion_pile"]) * OBJECT_TO_INDEX["onion"] \
            + successful_drop * OBJECT_TO_INDEX["empty"]

        inventory = new_object_in_inv

        new_maze_object_on_table = \
            object_is_pot * OBJECT_INDEX_TO_VEC[new_object_on_table].at[-1].set(new_pot_status) \
            + ~object_is_pot * ~object_is_agent * OBJECT_INDEX_TO_VEC[new_object_on_table] \
            + object_is_agent * maze_object_on_table


        maze_map = maze_map.at[padding + fwd_pos[1], padding + fwd_pos[0], :].set(new_maze_object_on_table)

        reward = jnp.array(successful_delivery, dtype=float)
        return maze_map, inventory, reward


    @partial(jax.jit, static_argnums=(0,))
    def interact(self, maze_map, wall_map, fwd_pos, inventory):  # scaffolding: the jitted step_env reaches process_interact through step_agents
        return self.process_interact(maze_map, wall_map, fwd_pos, inventory)


env = Overcooked()  # scaffolding
padding = env.obs_shape[0] - 1  # scaffolding
maze_map = jnp.zeros((5 + 2 * padding, 5 + 2 * padding, 3), jnp.uint8)  # scaffolding: a 5x5 kitchen
maze_map = maze_map.at[padding + 0, padding + 2].set(jnp.array([OBJECT_TO_INDEX["onion_pile"], COLOR_TO_INDEX["yellow"], 0], jnp.uint8))  # scaffolding
maze_map = maze_map.at[padding + 1:padding + 4, padding + 1:padding + 4].set(jnp.array([OBJECT_TO_INDEX["empty"], 0, 0], jnp.uint8))  # scaffolding
wall_map = jnp.zeros((5, 5), bool).at[0, :].set(True)  # scaffolding
inventory = jnp.array(OBJECT_TO_INDEX["empty"], jnp.uint8)  # scaffolding: uint8, the dtype process_interact returns
try:  # scaffolding
    for x in (2, 1, 3):  # scaffolding: three interact actions facing the top counter
        maze_map, inv, reward = env.interact(maze_map, wall_map, jnp.array([x, 0]), inventory)  # scaffolding
        inventory = inv  # scaffolding
    _report({"jit(interact)"}, 3)  # scaffolding
except Exception as err:  # scaffolding
    print(f"ERROR {type(err).__name__}")  # scaffolding
