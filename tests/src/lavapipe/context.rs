//! The long-lived Vulkan objects: loader, instance, the llvmpipe device, its queue and command
//! pool. Created once and reused for every case (device creation costs about a quarter second;
//! a warm dispatch about a millisecond).

use std::ffi::CStr;

use ash::vk;

use super::error::{LavapipeError, Unavailable, VkContext};

/// A connection to lavapipe's llvmpipe device.
pub struct Lavapipe {
    // Field order is drop order of nothing: destruction is explicit in `Drop`.
    _entry: ash::Entry,
    instance: ash::Instance,
    pub(crate) physical: vk::PhysicalDevice,
    pub(crate) device: ash::Device,
    pub(crate) queue: vk::Queue,
    pub(crate) pool: vk::CommandPool,
    pub(crate) memory: vk::PhysicalDeviceMemoryProperties,
    name: String,
}

impl std::fmt::Debug for Lavapipe {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Lavapipe")
            .field("device", &self.name)
            .finish()
    }
}

fn setup(call: &'static str) -> impl FnOnce(vk::Result) -> LavapipeError {
    move |result| Unavailable::Setup { call, result }.into()
}

impl Lavapipe {
    /// Loads `libvulkan.so.1`, creates a Vulkan 1.3 instance and a device on llvmpipe with every
    /// feature it supports except robust buffer access. Any failure here is
    /// [`LavapipeError::OracleUnavailable`].
    pub fn new() -> Result<Lavapipe, LavapipeError> {
        // SAFETY: loading the system Vulkan loader runs its initialisers; that is what it is for.
        let entry = unsafe { ash::Entry::load() }.map_err(Unavailable::Loader)?;
        // SAFETY: a plain query on a loaded entry.
        let version = unsafe { entry.try_enumerate_instance_version() }
            .map_err(setup("vkEnumerateInstanceVersion"))?
            .unwrap_or(vk::API_VERSION_1_0);
        require_1_3(version)?;
        let app = vk::ApplicationInfo::default()
            .application_name(c"agxc-tests")
            .api_version(vk::API_VERSION_1_3);
        let info = vk::InstanceCreateInfo::default().application_info(&app);
        // SAFETY: `info` and what it points to live across the call.
        let instance =
            unsafe { entry.create_instance(&info, None) }.map_err(setup("vkCreateInstance"))?;
        match Self::open_device(&instance) {
            Ok((physical, device, family, name)) => {
                // SAFETY: the device was created with one queue in `family`.
                let queue = unsafe { device.get_device_queue(family, 0) };
                let pool_info = vk::CommandPoolCreateInfo::default()
                    .queue_family_index(family)
                    .flags(vk::CommandPoolCreateFlags::RESET_COMMAND_BUFFER);
                // SAFETY: valid device and create info.
                let pool = match unsafe { device.create_command_pool(&pool_info, None) } {
                    Ok(p) => p,
                    Err(result) => {
                        // SAFETY: nothing was created from these yet.
                        unsafe {
                            device.destroy_device(None);
                            instance.destroy_instance(None);
                        }
                        return Err(setup("vkCreateCommandPool")(result));
                    }
                };
                // SAFETY: a plain query on a valid physical device.
                let memory = unsafe { instance.get_physical_device_memory_properties(physical) };
                Ok(Lavapipe {
                    _entry: entry,
                    instance,
                    physical,
                    device,
                    queue,
                    pool,
                    memory,
                    name,
                })
            }
            Err(e) => {
                // SAFETY: no child objects of the instance exist.
                unsafe { instance.destroy_instance(None) };
                Err(e)
            }
        }
    }

    /// The device name reported by the driver, e.g. `llvmpipe (LLVM 15.0.6, 256 bits)`.
    pub fn device_name(&self) -> &str {
        &self.name
    }

    fn open_device(
        instance: &ash::Instance,
    ) -> Result<(vk::PhysicalDevice, ash::Device, u32, String), LavapipeError> {
        // SAFETY: plain queries on a valid instance.
        let physicals = unsafe { instance.enumerate_physical_devices() }
            .map_err(setup("vkEnumeratePhysicalDevices"))?;
        let mut found = Vec::new();
        let mut chosen = None;
        for p in physicals {
            // SAFETY: `p` came from this instance.
            let props = unsafe { instance.get_physical_device_properties(p) };
            let name = props
                .device_name_as_c_str()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            if chosen.is_none() && name.starts_with("llvmpipe") {
                chosen = Some((p, props.api_version, name.clone()));
            }
            found.push(name);
        }
        let Some((physical, api, name)) = chosen else {
            return Err(Unavailable::NoDevice { found }.into());
        };
        require_1_3(api)?;
        // SAFETY: `physical` came from this instance.
        let families = unsafe { instance.get_physical_device_queue_family_properties(physical) };
        let wanted = vk::QueueFlags::GRAPHICS | vk::QueueFlags::COMPUTE;
        let family = families
            .iter()
            .position(|f| f.queue_flags.contains(wanted))
            .ok_or(Unavailable::Setup {
                call: "vkGetPhysicalDeviceQueueFamilyProperties (no graphics+compute queue)",
                result: vk::Result::ERROR_FEATURE_NOT_PRESENT,
            })? as u32;

        // Enable everything the driver offers, so shaders using 16-bit types, fragment stores
        // and the like run; robust buffer access is turned off because it changes the meaning
        // of out-of-bounds accesses, which agxc does not promise.
        let mut v11 = vk::PhysicalDeviceVulkan11Features::default();
        let mut v12 = vk::PhysicalDeviceVulkan12Features::default();
        let mut v13 = vk::PhysicalDeviceVulkan13Features::default();
        let mut core = {
            let mut query = vk::PhysicalDeviceFeatures2::default()
                .push_next(&mut v11)
                .push_next(&mut v12)
                .push_next(&mut v13);
            // SAFETY: the chain is made of valid, writable feature structs.
            unsafe { instance.get_physical_device_features2(physical, &mut query) };
            query.features
        };
        // The query linked the structs to each other; unlink them before building a new chain.
        v11.p_next = std::ptr::null_mut();
        v12.p_next = std::ptr::null_mut();
        v13.p_next = std::ptr::null_mut();
        if v13.dynamic_rendering == vk::FALSE {
            return Err(Unavailable::ApiVersion { major: 1, minor: 2 }.into());
        }
        core.robust_buffer_access = vk::FALSE;
        let mut features = vk::PhysicalDeviceFeatures2::default()
            .features(core)
            .push_next(&mut v11)
            .push_next(&mut v12)
            .push_next(&mut v13);
        let priorities = [1.0f32];
        let queues = [vk::DeviceQueueCreateInfo::default()
            .queue_family_index(family)
            .queue_priorities(&priorities)];
        let info = vk::DeviceCreateInfo::default()
            .queue_create_infos(&queues)
            .push_next(&mut features);
        // SAFETY: `info` and its chain live across the call.
        let device = unsafe { instance.create_device(physical, &info, None) }
            .map_err(setup("vkCreateDevice"))?;
        Ok((physical, device, family, name))
    }

    /// A memory type index allowed by `bits` with all of `flags`.
    pub(crate) fn memory_type(
        &self,
        bits: u32,
        flags: vk::MemoryPropertyFlags,
        what: &'static str,
    ) -> Result<u32, LavapipeError> {
        (0..self.memory.memory_type_count)
            .find(|&i| {
                bits & (1 << i) != 0
                    && self.memory.memory_types[i as usize]
                        .property_flags
                        .contains(flags)
            })
            .ok_or(LavapipeError::NoMemoryType { what })
    }

    /// Format features of `format` with optimal tiling.
    pub(crate) fn format_features(&self, format: vk::Format) -> vk::FormatFeatureFlags {
        // SAFETY: a plain query on a valid physical device.
        unsafe {
            self.instance
                .get_physical_device_format_properties(self.physical, format)
        }
        .optimal_tiling_features
    }

    /// Submits one command buffer and waits for it.
    pub(crate) fn submit_and_wait(&self, cmd: vk::CommandBuffer) -> Result<(), LavapipeError> {
        let fence_info = vk::FenceCreateInfo::default();
        // SAFETY: valid device.
        let fence =
            unsafe { self.device.create_fence(&fence_info, None) }.during("vkCreateFence")?;
        let cmds = [cmd];
        let submit = [vk::SubmitInfo::default().command_buffers(&cmds)];
        // SAFETY: the command buffer is recorded and ended; the fence is unsignalled.
        let result = unsafe {
            self.device
                .queue_submit(self.queue, &submit, fence)
                .during("vkQueueSubmit")
                .and_then(|()| {
                    self.device
                        .wait_for_fences(&[fence], true, u64::MAX)
                        .during("vkWaitForFences")
                })
        };
        // SAFETY: either the fence signalled or the submission failed; wait for idle so the
        // fence is not in use when destroyed.
        unsafe {
            if result.is_err() {
                let _ = self.device.device_wait_idle();
            }
            self.device.destroy_fence(fence, None);
        }
        result
    }
}

fn require_1_3(version: u32) -> Result<(), LavapipeError> {
    if version < vk::API_VERSION_1_3 {
        return Err(Unavailable::ApiVersion {
            major: vk::api_version_major(version),
            minor: vk::api_version_minor(version),
        }
        .into());
    }
    Ok(())
}

impl Drop for Lavapipe {
    fn drop(&mut self) {
        // SAFETY: every per-case object is destroyed by its `Scratch` before the call returns,
        // so only the pool, device and instance remain.
        unsafe {
            let _ = self.device.device_wait_idle();
            self.device.destroy_command_pool(self.pool, None);
            self.device.destroy_device(None);
            self.instance.destroy_instance(None);
        }
    }
}

/// The entry point name as a C string.
pub(crate) fn entry_name(name: &str) -> Result<std::ffi::CString, LavapipeError> {
    std::ffi::CString::new(name).map_err(|_| LavapipeError::EntryName(name.to_owned()))
}

/// `main`, for the generated vertex shader.
pub(crate) const MAIN: &CStr = c"main";
