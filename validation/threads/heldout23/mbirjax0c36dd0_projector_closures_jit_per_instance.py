# source: https://github.com/cabouman/mbirjax/commit/0c36dd0a918d788a7b218f3f8934f649f69a46c4
# expect: jit-in-loop-or-body at line 96
# runtime: COMPILES 3 CALLS 3
# why: create_projectors builds and jits the projector closures (sparse_forward_project_fcn and sparse_forward_project_pixel_batch) anew for every model instance, so a second model with the same geometry compiles the projector again.
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


class ParallelBeamModel:  # scaffolding: cut-down mbirjax TomographyModel (one parallel-beam geometry)
    pixel_batch_size_for_vmap = 4  # scaffolding
    view_batch_size_for_vmap = 2  # scaffolding

    def __init__(self, sinogram_shape, angles, recon_shape):  # scaffolding
        self.params = dict(sinogram_shape=sinogram_shape, recon_shape=recon_shape, angles=angles,  # scaffolding
                           view_params_name='angles', delta_det_channel=1.0, det_channel_offset=0.0)  # scaffolding
        self.projectors = Projectors(self)  # scaffolding: TomographyModel.create_projectors()

    def get_params(self, names):  # scaffolding
        return [self.params[n] for n in names] if isinstance(names, list) else self.params[names]  # scaffolding

    def get_geometry_parameters(self):  # scaffolding: as in the repo, a namedtuple built per call
        names = ['delta_det_channel', 'det_channel_offset']  # scaffolding
        GeometryParams = namedtuple('GeometryParams', names)  # scaffolding
        return GeometryParams(*self.get_params(names))  # scaffolding

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
        self.forward_project_pixel_batch, self.back_project_view_batch = None, None
        self.create_projectors(tomography_model)

    def create_projectors(self, tomography_model):
        forward_project_pixel_batch_to_one_view = tomography_model.forward_project_pixel_batch_to_one_view

        geometry_params = self.tomography_model.get_geometry_parameters()
        sinogram_shape, recon_shape = self.tomography_model.get_params(['sinogram_shape', 'recon_shape'])

        # Combine the needed parameters into a named tuple for named access compatible with jit
        projector_param_names = ['sinogram_shape', 'recon_shape', 'geometry_params']
        projector_param_values = (sinogram_shape, recon_shape, geometry_params)
        ProjectorParams = namedtuple('ProjectorParams', projector_param_names)
        projector_params = ProjectorParams(*tuple(projector_param_values))

        view_params_name = self.tomography_model.get_params('view_params_name')
        self.view_params_array = jnp.asarray(self.tomography_model.get_params(view_params_name))
        pixel_batch_size = self.tomography_model.pixel_batch_size_for_vmap
        view_batch_size = self.tomography_model.view_batch_size_for_vmap

        def sparse_forward_project_fcn(view_params_array, voxel_values, pixel_indices, view_indices=()):
            voxel_and_indices = (voxel_values, pixel_indices)  # Apply ensure_tuple

            def forward_project_pixel_batch_wrapper(local_values, local_pix_indices):
                return sparse_forward_project_pixel_batch(view_params_array, local_values, local_pix_indices,
                                                          view_indices, view_batch_size)

            summed_output = sum_function_in_batches(forward_project_pixel_batch_wrapper, voxel_and_indices,
                                                    pixel_batch_size)
            return summed_output

        @partial(jax.jit, static_argnames='views_per_batch')
        def sparse_forward_project_pixel_batch(view_params_array, voxel_values, pixel_indices, view_indices=(),
                                               views_per_batch=None):
            cur_view_params_array = view_params_array
            if len(view_indices) > 0:
                cur_view_params_array = view_params_array[view_indices]

            def forward_project_single_view(single_view_params):
                # Use closure to define a mappable function that operates on a single view with the given voxel values.
                return forward_project_pixel_batch_to_one_view(voxel_values, pixel_indices,
                                                               single_view_params, projector_params)

            def forward_project_view_batch(view_params_batch):
                sino_view_batch = jax.vmap(forward_project_single_view)(view_params_batch)

                return sino_view_batch

            sinogram = concatenate_function_in_batches(forward_project_view_batch, cur_view_params_array, views_per_batch)

            return sinogram

        self._jit_sparse_forward_project = jax.jit(sparse_forward_project_fcn)

        def sparse_forward_project_public(voxel_values, pixel_indices, view_indices=()):
            return self._jit_sparse_forward_project(self.view_params_array, voxel_values,
                                                    pixel_indices, view_indices)

        self.sparse_forward_project = sparse_forward_project_public
        self.forward_project_pixel_batch = sparse_forward_project_pixel_batch


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
