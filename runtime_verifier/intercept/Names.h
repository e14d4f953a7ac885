// Names of datatype and operator ids for the coordinator. Each API's support
// file registers its namer; the sender asks here without knowing any API.
#pragma once

#include "Runtime.h"

#include <string>

namespace lockstep::rt {

using Namer = std::string (*)(uint32_t Value);

/// Called once per API from a static initializer of its support file.
void registerNamers(Api A, Namer Datatype, Namer Op);

std::string datatypeName(uint32_t Id);
std::string opName(uint32_t Id);

} // namespace lockstep::rt
