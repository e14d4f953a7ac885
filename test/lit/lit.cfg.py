# lit suite of the lockstep checks: each test runs clang-tidy with the plugin
# and FileCheck matches the diagnostics written next to the code; any warning,
# error, note or remark that no CHECK line expects fails the test.
import os

import lit.formats

config.name = "lockstep"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".c", ".cpp", ".cu", ".test"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(os.path.dirname(config.lockstep_plugin), "..", "test", "lit")
config.excludes = ["Inputs"]

config.environment["PATH"] = os.pathsep.join(
    [config.llvm_tools_dir, config.environment.get("PATH", os.environ.get("PATH", ""))])

if not os.path.isfile(config.lockstep_plugin):
    lit_config.fatal("plugin not built: " + config.lockstep_plugin)
if not config.mpi_include or not os.path.isfile(os.path.join(config.mpi_include, "mpi.h")):
    lit_config.fatal("mpi.h not found: install libopenmpi-dev (scripts/setup.sh does)")

tidy = "%s --load=%s --quiet" % (config.clang_tidy, config.lockstep_plugin)
config.substitutions.append(("%clang_tidy", tidy))
config.substitutions.append(
    ("%filecheck_diags", "FileCheck --implicit-check-not='{{warning|error|note|remark}}:'"))
test_include = os.path.join(config.lockstep_source_dir, "test", "include")
common = "-I%s -I%s" % (config.mpi_include, test_include)
lockstep_include = os.path.join(config.lockstep_source_dir, "include")
config.substitutions.append(("%c_flags", "-x c -std=c11 " + common))
config.substitutions.append(("%cxx_flags", "-x c++ -std=c++17 -I%s %s" % (lockstep_include, common)))

# CUDA and NCCL come with the machine image at /usr/local/cuda; without them
# the tests that need them report UNSUPPORTED with the REQUIRES line.
cuda_include = os.path.join(config.cuda_path, "include")
if os.path.isfile(os.path.join(cuda_include, "nccl.h")):
    config.available_features.add("nccl")
    config.substitutions.append(("%nccl_flags", "-I" + cuda_include))
else:
    lit_config.note("no nccl.h under %s: NCCL tests are unsupported here" % cuda_include)
if os.path.isfile(os.path.join(cuda_include, "cuda_runtime.h")):
    config.available_features.add("cuda")
    config.substitutions.append((
        "%cuda_flags",
        "-x cuda --cuda-path=%s --cuda-host-only -nocudalib -Wno-unknown-cuda-version "
        "-Xclang -target-sdk-version=12.9 -I%s %s" % (config.cuda_path, cuda_include, common)))
else:
    lit_config.note("no CUDA toolkit at %s: CUDA tests are unsupported here" % config.cuda_path)
