# source: https://github.com/cabouman/mbirjax/commit/0c36dd0a918d788a7b218f3f8934f649f69a46c4
# expect: none
# runtime: COMPILES 1 CALLS 3
# why: After the commit the projector is one module-level jit with hashable static kernel/params (namedtuple classes shared), so same-geometry models reuse one compiled program.
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
import jax
import jax.numpy as jnp
from functools import partial

_GEOMETRY_PARAMS_CLASSES = {}


def make_geometry_params(field_names, values):
    field_names = tuple(field_names)
    cls = _GEOMETRY_PARAMS_CLASSES.get(field_names)
    if cls is None:
        cls = namedtuple('GeometryParams', field_names)
        _GEOMETRY_PARAMS_CLASSES[field_names] = cls
    return cls(*values)


ProjectorParams = namedtuple('ProjectorParams', ['sinogram_shape', 'recon_shape', 'geometry_params'])


class ParallelBeamModel:  # scaffolding: cut-down mbirjax TomographyModel (one parallel-beam geometry)
    pixel_batch_size_for_vmap = 4  # scaffolding
    view_batch_size_for_vmap = 2  # scaffolding

    def __init__(self, sinogram_shape, angles, recon_shape):  # scaffolding
        self.params = dict(sinogram_shape=sinogram_shape, recon_shape=recon_shape, angles=angles,  # scaffolding
                           view_params_name='angles', delta_det_channel=1.0, det_channel_offset=0.0)  # scaffolding
        self.projectors = Projectors(self)  # scaffolding: TomographyModel.create_projectors()

    def get_params(self, names):  # scaffolding
        return [self.params[n] for n in names] if isinstance(names, list) else self.params[names]  # scaffolding

    def get_geometry_parameters(self):  # scaffolding: routed through make_geometry_params, as after the commit
        names = ['delta_det_channel', 'det_channel_offset']  # scaffolding
        return make_geometry_params(names, self.get_params(names))  # scaffolding

    @staticmethod
    def forward_project_pixel_batch_to_one_view(voxel_values, pixel_indices, angle, projector_params):  # scaffolding
        num_det_channels = projector_params.sinogram_shape[2]  # scaffolding
        x = (pixel_indices % projector_params.recon_shape[1]).astype(jnp.float32)  # scaffolding
        ch = jnp.clip((x * jnp.cos(angle)).astype(jnp.int32), 0, num_det_channels - 1)  # scaffolding
        return jnp.zeros((voxel_values.shape[1], num_det_channels)).at[:, ch].add(voxel_values.T)  # scaffolding


class Projectors:

    def __init__(self, tomography_model):

        self.tomography_model = tomography_model
        self.sparse_forward_project, self.sparse_back_project = None, None
        self.create_projectors(tomography_model)

    def create_projectors(self, tomography_model):
        forward_project_pixel_batch_to_one_view = tomography_model.forward_project_pixel_batch_to_one_view

        geometry_params = self.tomography_model.get_geometry_parameters()
        sinogram_shape, recon_shape = self.tomography_model.get_params(['sinogram_shape', 'recon_shape'])
        projector_params = ProjectorParams(sinogram_shape, recon_shape, geometry_params)

        view_params_name = self.tomography_model.get_params('view_params_name')
        self.view_params_array = jnp.asarray(self.tomography_model.get_params(view_params_name))
        pixel_batch_size = self.tomography_model.pixel_batch_size_for_vmap
        view_batch_size = self.tomography_model.view_batch_size_for_vmap
        self._jit_sparse_forward_project = _jit_sparse_forward_project

        def sparse_forward_project_public(voxel_values, pixel_indices, view_indices=()):
            return _jit_sparse_forward_project(
                self.view_params_array, voxel_values, pixel_indices,
                fwd_kernel=forward_project_pixel_batch_to_one_view,
                projector_params=projector_params,
                pixel_batch_size=pixel_batch_size,
                view_batch_size=view_batch_size,
                view_indices=view_indices)

        self.sparse_forward_project = sparse_forward_project_public


def _sparse_forward_project(view_params_array, voxel_values, pixel_indices,
                            fwd_kernel, projector_params, pixel_batch_size, view_batch_size,
                            view_indices=()):
    cur_view_params_array = view_params_array
    if len(view_indices) > 0:
        cur_view_params_array = view_params_array[view_indices]

    def forward_project_pixel_batch(local_values, local_pix_indices):
        def forward_project_single_view(single_view_params):
            return fwd_kernel(local_values, local_pix_indices, single_view_params, projector_params)

        def forward_project_view_batch(view_params_batch):
            # vmap (not lax.map) over views: the per-view kernel reuses the same voxel batch,
            # so parallelizing over views trades a little memory for speed.
            return jax.vmap(forward_project_single_view)(view_params_batch)

        return concatenate_function_in_batches(forward_project_view_batch, cur_view_params_array,
                                               view_batch_size)

    return sum_function_in_batches(forward_project_pixel_batch, (voxel_values, pixel_indices),
                                   pixel_batch_size)


_jit_sparse_forward_project = jax.jit(
    _sparse_forward_project,
    static_argnames=['fwd_kernel', 'projector_params', 'pixel_batch_size', 'view_batch_size'])


def concatenate_function_in_batches(function, data_to_batch, batch_size):  # scaffolding: cut down (whole-array call)
    return function(data_to_batch)  # scaffolding


def sum_function_in_batches(function, data_to_batch, batch_size):  # scaffolding: cut down (python loop over batches)
    total = None  # scaffolding
    for s in range(0, data_to_batch[0].shape[0], batch_size):  # scaffolding
        out = function(*[d[s:s + batch_size] for d in data_to_batch])  # scaffolding
        total = out if total is None else total + out  # scaffolding
    return total  # scaffolding


angles = jnp.linspace(0, jnp.pi, 6, endpoint=False)  # scaffolding
voxels = jnp.ones((8, 3))  # scaffolding: 8 pixels x 3 slices
pixels = jnp.arange(8)  # scaffolding
calls = 0  # scaffolding
for _ in range(3):  # scaffolding: three models with the same geometry (e.g. a demo run three times)
    model = ParallelBeamModel((6, 3, 5), angles, (4, 4, 3))  # scaffolding
    model.projectors.sparse_forward_project(voxels, pixels).block_until_ready()  # scaffolding
    calls += 1  # scaffolding
_report({"jit(sparse_forward_project_fcn)", "jit(sparse_forward_project_pixel_batch)", "jit(_sparse_forward_project)"}, calls)  # scaffolding
