// The search parameters' names, ranges, and their [search] table (see params.h).
#include <algorithm>
#include <cmath>
#include <iomanip>
#include <iterator>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string_view>

#include "moku/search/params_config.h"

namespace moku::search {

namespace {

const SearchParamInfo PARAMS[] = {
    {"lmr_base", &SearchParams::lmrBase, -2, 3, false},
    {"lmr_scale", &SearchParams::lmrScale, 0, 2, false},
    {"lmr_cut_node", &SearchParams::lmrCutNode, -2, 4, false},
    {"lmr_not_improving", &SearchParams::lmrNotImproving, -2, 4, false},
    {"lmr_three", &SearchParams::lmrThree, -2, 4, false},
    {"lmr_fail_high", &SearchParams::lmrFailHigh, -2, 4, false},
    {"lmr_history_divisor", &SearchParams::lmrHistoryDivisor, 256, 1e+06, false},
    {"lmr_pv_full_moves", &SearchParams::lmrPvFullMoves, 1, 64, true},
    {"lmr_tt_pv", &SearchParams::lmrTtPv, -2, 4, false},
    {"lmr_attack", &SearchParams::lmrAttack, -2, 4, false},
    {"lmr_attack_two", &SearchParams::lmrAttackTwo, -2, 4, false},
    {"four_lmr", &SearchParams::fourLmr, 0, 3, true},
    {"lmr_plain_four", &SearchParams::lmrPlainFour, -2, 4, false},
    {"lmr_deeper_base", &SearchParams::lmrDeeperBase, 0, 2000, false},
    {"lmr_deeper_per_ply", &SearchParams::lmrDeeperPerPly, 0, 500, false},
    {"move_count_base", &SearchParams::moveCountBase, 0, 100, false},
    {"move_count_power", &SearchParams::moveCountPower, 0.5, 3, false},
    {"trivial_prune_depth", &SearchParams::trivialPruneDepth, 0, 64, false},
    {"razor_depth", &SearchParams::razorDepth, 0, 20, false},
    {"razor_base", &SearchParams::razorBase, 0, 5000, false},
    {"razor_per_depth", &SearchParams::razorPerDepth, 0, 5000, false},
    {"futility_depth", &SearchParams::futilityDepth, 0, 64, false},
    {"futility_base", &SearchParams::futilityBase, -5000, 5000, false},
    {"futility_per_depth", &SearchParams::futilityPerDepth, 0, 5000, false},
    {"futility_improving", &SearchParams::futilityImproving, 0, 5000, false},
    {"futility_min", &SearchParams::futilityMin, -5000, 5000, false},
    {"futility_no_attack", &SearchParams::futilityNoAttack, 0, 1, false},
    {"tt_value_eval", &SearchParams::ttValueEval, 0, 1, true},
    {"fail_high_per_depth", &SearchParams::failHighPerDepth, 0, 5000, false},
    {"fail_high_threat", &SearchParams::failHighThreat, 0, 5000, false},
    {"fail_high_depth", &SearchParams::failHighDepth, 0, 4, false},
    {"fail_high_four_extension", &SearchParams::failHighFourExtension, 0, 4, false},
    {"null_move_depth", &SearchParams::nullMoveDepth, 1, 64, false},
    {"null_move_base", &SearchParams::nullMoveBase, 1, 10, false},
    {"null_move_divisor", &SearchParams::nullMoveDivisor, 1, 64, false},
    {"iir_depth", &SearchParams::iirDepth, 1, 64, false},
    {"pv_stale_tt", &SearchParams::pvStaleTt, 0, 2, false},
    {"pv_stale_tt_max", &SearchParams::pvStaleTtMax, 0, 20, false},
    {"singular_depth", &SearchParams::singularDepth, 1, 64, false},
    {"singular_tt_depth_slack", &SearchParams::singularTtDepthSlack, 0, 64, false},
    {"singular_margin_per_depth", &SearchParams::singularMarginPerDepth, 0, 100, false},
    {"singular_fail_high_reduction", &SearchParams::singularFailHighReduction, 0, 4, false},
    {"singular_double_margin", &SearchParams::singularDoubleMargin, 0, 5000, false},
    {"singular_double_max", &SearchParams::singularDoubleMax, 0, 64, false},
    {"far_defence_opp", &SearchParams::farDefenceOpp, 0, 8, false},
    {"far_defence_self", &SearchParams::farDefenceSelf, 0, 8, false},
    {"far_defence_prune_depth", &SearchParams::farDefencePruneDepth, 0, 64, false},
    {"four_reply_extension", &SearchParams::fourReplyExtension, 0, 2, false},
    {"four_three_defence", &SearchParams::fourThreeDefence, 0, 1, true},
    {"candidate_square", &SearchParams::candidateSquare, 1, 4, true},
    {"candidate_line", &SearchParams::candidateLine, 0, 4, true},
    {"tt_move_extension_pv", &SearchParams::ttMoveExtensionPv, 0, 2, false},
    {"tt_move_extension_non_pv", &SearchParams::ttMoveExtensionNonPv, 0, 2, false},
    {"tt_move_near_four_extension", &SearchParams::ttMoveNearFourExtension, 0, 2, false},
    {"alpha_raise_reduction", &SearchParams::alphaRaiseReduction, 0, 4, false},
    {"alpha_raise_min_depth", &SearchParams::alphaRaiseMinDepth, 0, 64, false},
    {"alpha_raise_max_depth", &SearchParams::alphaRaiseMaxDepth, 0, 64, false},
    {"alpha_raise_max_value", &SearchParams::alphaRaiseMaxValue, 0, 30000, true},
    {"root_lmr_index", &SearchParams::rootLmrIndex, 1, 225, true},
    {"root_lmr_depth", &SearchParams::rootLmrDepth, 1, 64, false},
    {"root_four_lmr", &SearchParams::rootFourLmr, 0, 1, true},
    {"partial_iteration", &SearchParams::partialIteration, 0, 1, true},
    {"vct_depth", &SearchParams::vctDepth, 0, 60, true},
    {"vct_nodes_per_ms", &SearchParams::vctNodesPerMs, 0, 10000, false},
    {"aspiration_depth", &SearchParams::aspirationDepth, 1, 64, true},
    {"aspiration_delta", &SearchParams::aspirationDelta, 1, 5000, true},
    {"aspiration_growth", &SearchParams::aspirationGrowth, 1, 4, false},
    {"aspiration_add", &SearchParams::aspirationAdd, 0, 1000, true},
    {"aspiration_max", &SearchParams::aspirationMax, 1, 30000, true},
    {"q_full_depth", &SearchParams::qFullDepth, 0, 60, true},
    {"q_delta_base", &SearchParams::qDeltaBase, 0, 30000, true},
    {"q_delta_per_depth", &SearchParams::qDeltaPerDepth, 0, 5000, true},
    {"q_delta_min", &SearchParams::qDeltaMin, 0, 30000, true},
    {"history_per_depth2", &SearchParams::historyPerDepth2, 0, 1000, false},
    {"history_max_bonus", &SearchParams::historyMaxBonus, 0, 16384, true},
    {"history_on_alpha", &SearchParams::historyOnAlpha, 0, 1, true},
    {"history_tt_cut", &SearchParams::historyTtCut, 0, 1, true},
    {"history_order_divisor", &SearchParams::historyOrderDivisor, 1, 1024, true},
    {"killer1", &SearchParams::killer1, 0, 30000, true},
    {"killer2", &SearchParams::killer2, 0, 30000, true},
    {"policy_depth", &SearchParams::policyDepth, 0, 64, false},
    {"policy_prune_base", &SearchParams::policyPruneBase, 0, 10000, true},
    {"policy_prune_per_depth", &SearchParams::policyPrunePerDepth, 0, 1000, true},
    {"policy_reduction_step", &SearchParams::policyReductionStep, 1, 10000, false},
    {"nnue_margin", &SearchParams::nnueMargin, 0, 30000, true},
    {"nnue_decisive", &SearchParams::nnueDecisive, 0, 30000, true},
    {"nnue_weight", &SearchParams::nnueWeight, 0, 100, true},
};

int paramIndex(std::string_view name) {
    for (size_t i = 0; i < std::size(PARAMS); i++)
        if (name == PARAMS[i].name) return int(i);
    return -1;
}

// Checks a [search] (or [search.RULE]) value; `key` names it in errors (search.lmr_scale).
double checkedValue(const SearchParamInfo& info, const toml::node& node, const std::string& key) {
    std::optional<double> v = node.value<double>();
    if (!v || !(node.is_integer() || node.is_floating_point()) || !std::isfinite(*v))
        throw std::runtime_error(key + " must be a number");
    if (info.integer && *v != std::floor(*v))
        throw std::runtime_error(key + " must be a whole number");
    if (*v < info.lo || *v > info.hi) {
        std::ostringstream msg;
        msg << key << " must lie in " << info.lo << ".." << info.hi;
        throw std::runtime_error(msg.str());
    }
    return *v;
}

// One order for the per-rule values, by rule and parameter, so that equal sets compare equal.
void sortRuleValues(std::vector<RuleValue>& v) {
    std::sort(v.begin(), v.end(), [](const RuleValue& a, const RuleValue& b) {
        return a.rule != b.rule ? a.rule < b.rule : a.param < b.param;
    });
}

} // namespace

std::span<const SearchParamInfo> searchParamInfo() { return PARAMS; }

// Freestyle, standard and renju, whose evaluations are per-pcode tables averaged over two plies:
// that value is smoother than the pattern terms' and takes Rapfi's sizes of razoring and futility
// and the hash value in their place of the static one. With the tables and these values
// together, 100 self-play games at 0.2 s against the pattern terms with the [search] values:
// freestyle 61-35-4, +92 +- 70 Elo (the tables with the [search] values: 52-44-4, +28 +- 68);
// renju 58-41-1, +60 +- 70; standard 54-43-3, +38 +- 68. (The same sizes with the pattern
// terms measured -2 +- 46 for razoring and -87 +- 65 for futility, hence these rules only.)
std::vector<RuleValue> defaultRuleValues() {
    const std::pair<const char*, double> perPcode[] = {
        {"razor_depth", 2.6},       {"razor_base", 19},     {"razor_per_depth", 14},
        {"futility_depth", 64},     {"futility_base", -63}, {"futility_per_depth", 63},
        {"futility_improving", 63}, {"futility_min", 0},    {"tt_value_eval", 1}};
    std::vector<RuleValue> v;
    for (Rule rule : {Rule::FREESTYLE, Rule::STANDARD, Rule::RENJU})
        for (auto [name, value] : perPcode) v.push_back({rule, paramIndex(name), value});
    sortRuleValues(v);
    return v;
}

SearchParams SearchParams::forRule(Rule rule) const {
    SearchParams p = *this;
    for (const RuleValue& rv : ruleValues)
        if (rv.rule == rule) p.*(PARAMS[rv.param].field) = rv.value;
    return p;
}

SearchParams loadSearchParams(const toml::table& doc, SearchParams p) {
    const toml::table* t = &doc;
    if (const toml::node* sub = doc.get("search")) {
        t = sub->as_table();
        if (!t) throw std::runtime_error("search must be a table");
    }
    for (const auto& [k, node] : *t) {
        std::string key(k.str());
        if (std::optional<Rule> rule = ruleFromName(key); rule && t != &doc) {
            // [search.RULE]: values for that rule only.
            const toml::table* rt = node.as_table();
            if (!rt) throw std::runtime_error("search." + key + " must be a table");
            for (const auto& [rk, rnode] : *rt) {
                std::string name(rk.str());
                int i = paramIndex(name);
                if (i < 0) throw std::runtime_error("unknown key search." + key + "." + name);
                double v = checkedValue(PARAMS[i], rnode, "search." + key + "." + name);
                std::erase_if(p.ruleValues, [&](const RuleValue& rv) {
                    return rv.rule == *rule && rv.param == i;
                });
                p.ruleValues.push_back({*rule, i, v});
            }
            sortRuleValues(p.ruleValues);
            continue;
        }
        int i = paramIndex(key);
        if (i < 0) {
            if (t == &doc) continue; // a whole document: other sections are not ours
            throw std::runtime_error("unknown key search." + key);
        }
        p.*(PARAMS[i].field) = checkedValue(PARAMS[i], node, "search." + key);
    }
    return p;
}

std::string searchParamsToToml(const SearchParams& p, bool ranges) {
    std::ostringstream out;
    out << "[search]\n";
    for (const SearchParamInfo& i : PARAMS) {
        double v = p.*(i.field);
        out << i.name << " = ";
        if (i.integer)
            out << int64_t(v);
        else
            out << std::setprecision(10) << v;
        if (ranges) out << "  # " << i.lo << ".." << i.hi << (i.integer ? ", whole" : "");
        out << "\n";
    }
    for (int r = 0; r < RULE_NB; r++) {
        bool any = false;
        for (const RuleValue& rv : p.ruleValues) {
            if (int(rv.rule) != r) continue;
            if (!any) out << "\n[search." << ruleName(Rule(r)) << "]\n";
            any = true;
            out << PARAMS[rv.param].name << " = " << std::setprecision(10) << rv.value << "\n";
        }
    }
    return out.str();
}

} // namespace moku::search
