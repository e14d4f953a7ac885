// The wording of a pending finding in the findings JSON (key "pending",
// docs/output.md): what `lockstep merge` and the unit cache need to render
// the finding again once its callee is known.
#pragma once

#include "Result.h"
#include "Wording.h"

#include <nlohmann/json.hpp>

#include <string>

namespace lockstep::findings {

nlohmann::ordered_json wordingJson(const Wording &W);

/// Reads what wordingJson wrote for a finding with \p NoteCount notes,
/// strictly; a failure's message starts with \p Context.
Error readWording(const nlohmann::json &Object, const std::string &Context, size_t NoteCount,
                  Wording &Out);

} // namespace lockstep::findings
