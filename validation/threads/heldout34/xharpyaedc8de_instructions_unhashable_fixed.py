# source: https://github.com/Niolon/XHARPy/commit/aedc8de433d3d327f053af7b568b2385def307b4
# expect: none
# runtime: COMPILES 1 CALLS 3
# why: With the commit's int()/float() casts every instruction field is a Python scalar, the instruction tuple hashes by value and three refinement calls compile once.

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
from collections import namedtuple

import jax
import jax.numpy as jnp
import numpy as np

jax.config.update('jax_enable_x64', True)


AtomInstructions = namedtuple('AtomInstructions', [
    'name', # Name of atom, supposed to be unique
    'element', # Element symbol, e.g. 'Ca'
    'dispersion_real', # dispersion correction f'
    'dispersion_imag', # dispersion correction f''
    'xyz', # fractional coordinates
    'uij', # uij parameters U11, U22, U33, U23, U13, U12
    'cijk', # Gram Charlier 3rd Order C111, C222, C333, C112, C122, C113, C133, C223, C233, C123,
    'dijkl', # Gram Charlier 4th Order D1111, D2222, D3333, D1112, D1222, D1113, D1333, D2223, D2333, D1122, D1133, D2233, D1123, D1223, D1233
    'occupancy' # the occupancy
], defaults= [None, None, None, None, None, None, None, None])


RefinedParameter = namedtuple('RefinedParameter', [
    'par_index',     # index of the parameter in in the parameter array
    'multiplicator', # Multiplicator for the parameter. (default: 1.0)
    'added_value'    # Value that is added to the parameter (e.g. for occupancies)
], defaults=(None, 1, 0))


FixedParameter = namedtuple('FixedParameter', [
    'value',         # fixed value of the parameter 
    'special_position' # stems from an atom on a special position, makes a difference for output of occupancy
], defaults=[1.0, False])


UIso = namedtuple('Uiso',[
    'uiso'          # Parameter for Uiso can either be a fixed parameter or a refined Parameter
])

ConstrainedValues = namedtuple('ConstrainedValues', [
    'variable_indexes', # 0-x (positive): variable index; -1 means 0 -> not refined
    'multiplicators', # For higher symmetries mathematical conditions can include multiplicators
    'added_value', # Values that are added
    'special_position' # stems from an atom on a special position, makes a difference for output of occupancy
], defaults=[[], [], [], False])


def create_construction_instructions(atom_table, constraint_dict, scaling0=1.0):  # (sp2/torsion riding atoms, Uani, Gram-Charlier and refinement_dict branches trimmed)
    """
    Creates the instructions that are needed for reconstructing all atomic parameters from the refined parameters
    Additionally returns an initial guesss for the refined parameter list from the atom table.
    """
    parameters = jnp.full(10000, jnp.nan)
    current_index = 1
    parameters = parameters.at[0].set(scaling0)  # (jax.ops.index_update, removed from JAX, written as .at[].set)
    construction_instructions = []
    for atom in atom_table:  # (pandas atom_table.iterrows())
        xyz = np.array([atom['fract_x'], atom['fract_y'], atom['fract_z']], dtype=np.float64)
        if atom['label'] in constraint_dict.keys() and 'xyz' in constraint_dict[atom['label']].keys():
            constraint = constraint_dict[atom['label']]['xyz']
            instr_zip = zip(constraint.variable_indexes, constraint.multiplicators, constraint.added_value)
            xyz_instructions = tuple(RefinedParameter(par_index=int(current_index + par_index),
                                                      multiplicator=mult,
                                                      added_value=add) if par_index >= 0 
                                     else FixedParameter(value=float(add), special_position=constraint.special_position) for par_index, mult, add in instr_zip)
            n_pars = jnp.max(constraint.variable_indexes) + 1
            parameters = parameters.at[current_index:current_index + n_pars].set(
                                              jnp.array([xyz[jnp.array(varindex)] for index, varindex in zip(*np.unique(constraint.variable_indexes, return_index=True)) if index >=0]))
            current_index += n_pars
        else:
            parameters = parameters.at[current_index:current_index + 3].set(jnp.array(list(xyz)))
            xyz_instructions = tuple(RefinedParameter(par_index=int(array_index), multiplicator=1.0) for array_index in range(current_index, current_index + 3))
            current_index += 3

        if atom['adp_type'] == 'Uiso':
            adp_instructions = UIso(uiso=RefinedParameter(par_index=int(current_index), multiplicator=1.0, added_value=0.0))
            parameters = parameters.at[current_index].set(atom['U_iso_or_equiv'])
            current_index += 1
        else:
            raise NotImplementedError('Unknown ADP type in cif. Please use the Uiso or Uani convention')

        cijk_instructions = tuple(FixedParameter(value=0.0) for index in range(10))
        dijkl_instructions = tuple(FixedParameter(value=0.0) for index in range(15))

        if atom['label'] in constraint_dict.keys() and 'occ' in constraint_dict[atom['label']].keys():
            constraint = constraint_dict[atom['label']]['occ']
            occupancy = FixedParameter(value=float(constraint.added_value[0]), special_position=constraint.special_position)
        else:
            occupancy = FixedParameter(value=float(atom['occupancy']))

        construction_instructions.append(AtomInstructions(
            name=atom['label'],
            element=atom['type_symbol'],
            xyz=xyz_instructions,
            uij=adp_instructions,
            cijk=cijk_instructions,
            dijkl=dijkl_instructions,
            occupancy=occupancy
        ))
    parameters = parameters[:current_index]
    return tuple(construction_instructions), parameters


def resolve_instruction(parameters, instruction):
    """Resolve fixed and refined parameters"""
    if type(instruction).__name__ == 'RefinedParameter':
        return_value = instruction.multiplicator * parameters[instruction.par_index] + instruction.added_value
    elif type(instruction).__name__ == 'FixedParameter':
        return_value = instruction.value
    else:
        raise NotImplementedError('This type of instruction is not implemented')
    return return_value


def construct_values(parameters, construction_instructions, cell_mat_m):  # (uij/cijk/dijkl and riding-atom constructions trimmed)
    """Reconstruct xyz, adp-parameters and occupancies from the given construction instructions. Allows for the
    Flexible usage of combinations of fixed parameters and parameters that are refined, as well as constraints"""
    xyz = jnp.array(
        [jnp.array([resolve_instruction(parameters, inner_instruction) for inner_instruction in instruction.xyz])
          if type(instruction.xyz) in (tuple, list) else jnp.full(3, -9999.9) for instruction in construction_instructions]
    )
    uiso = jnp.array([resolve_instruction(parameters, instruction.uij.uiso) for instruction in construction_instructions])
    occupancies = jnp.array([resolve_instruction(parameters, instruction.occupancy) for instruction in construction_instructions])    
    return xyz, uiso, occupancies


def calc_lsq_factory(cell_mat_m, construction_instructions):  # (structure factors and the rest of the arguments trimmed)
    """Generates a calc_lsq function. Doing this with a factory function allows for both flexibility but also
    speed by automatic loop and conditional unrolling for all the stuff that is constant for a given structure."""
    construct_values_j = jax.jit(construct_values, static_argnums=(1))
    def function(parameters):
        xyz, uiso, occupancies = construct_values_j(parameters, construction_instructions, cell_mat_m)
        return jnp.sum(occupancies * (jnp.sum(xyz, axis=1) + uiso))  # scaffolding: stands in for the least-squares sum over structure factors
    return function


# scaffolding: two atoms of a small structure, the first on a special position (x, x, x) -- stands in for the cif atom table
atom_table = [
    dict(label='Si1', type_symbol='Si', fract_x=0.125, fract_y=0.125, fract_z=0.125, adp_type='Uiso', U_iso_or_equiv=0.01, occupancy=1.0),
    dict(label='O1', type_symbol='O', fract_x=0.3, fract_y=0.2, fract_z=0.1, adp_type='Uiso', U_iso_or_equiv=0.02, occupancy=1.0),
]
constraint_dict = {'Si1': {'xyz': ConstrainedValues(variable_indexes=np.array([0, 0, 0]), multiplicators=[1.0, 1.0, 1.0], added_value=[0.0, 0.0, 0.0], special_position=True)}}
construction_instructions, parameters = create_construction_instructions(atom_table, constraint_dict)
calc_lsq = calc_lsq_factory(jnp.eye(3) * 7.1, construction_instructions)
for step in range(3):  # scaffolding: refinement cycles
    value = calc_lsq(parameters + 0.001 * step)
_report({"jit(construct_values)"}, 3)
