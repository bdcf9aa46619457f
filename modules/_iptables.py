"""The iptables module's command lines: a rule as arguments, in the order ansible-core builds it (so the rule a
task reports, and the rule -C looks for, are the same text either runner makes), and the chain commands."""

import re

# The flag that names an ICMP type, per IP version.
ICMP_TYPE_FLAG = {"ipv4": "--icmp-type", "ipv6": "--icmpv6-type"}


class Rule(object):
    """Arguments being added to a rule; a value starting with ! negates its flag."""

    def __init__(self):
        self.args = []

    def param(self, value, flag):
        if value is None:
            return
        if value.startswith("!"):
            self.args.extend(["!", flag, value[1:]])
        else:
            self.args.extend([flag, value])

    def params(self, values, flag):
        for value in values or ():
            self.param(value, flag)

    def flag(self, setting, flag, negatable=True):
        """``--syn``-like flags: 'match' adds it, 'negate' adds it negated."""
        if setting == "match":
            self.args.append(flag)
        elif negatable and setting == "negate":
            self.args.extend(["!", flag])

    def csv(self, values, flag):
        if values:
            self.args.extend([flag, ",".join(values)])

    def match(self, when, name):
        if when:
            self.args.extend(["-m", name])

    def jump(self, when, target):
        if when:
            self.args.extend(["-j", target])


def build_rule(params, ip_version):
    """The rule's arguments (empty when the task names no rule)."""
    rule = Rule()
    matches = params["match"] or []
    rule.param(params["protocol"], "-p")
    rule.param(params["source"], "-s")
    rule.param(params["destination"], "-d")
    rule.params(matches, "-m")
    flags = params["tcp_flags"] or {}
    if flags.get("flags") is not None and flags.get("flags_set") is not None:
        rule.args.extend(["--tcp-flags", ",".join(flags["flags"]), ",".join(flags["flags_set"])])
    rule.param(params["jump"], "-j")
    if params["jump"] and params["jump"].lower() == "tee":
        rule.param(params["gateway"], "--gateway")
    rule.param(params["log_prefix"], "--log-prefix")
    rule.param(params["log_level"], "--log-level")
    rule.param(params["to_destination"], "--to-destination")
    rule.match(params["destination_ports"], "multiport")
    rule.csv(params["destination_ports"], "--dports")
    rule.param(params["to_source"], "--to-source")
    rule.param(params["goto"], "-g")
    rule.param(params["in_interface"], "-i")
    rule.param(params["out_interface"], "-o")
    rule.param(params["fragment"], "-f")
    rule.param(params["set_counters"], "-c")
    rule.param(params["source_port"], "--source-port")
    rule.param(params["destination_port"], "--destination-port")
    rule.param(params["to_ports"], "--to-ports")
    jump = (params["jump"] or "").lower()
    rule.param(params["set_dscp_mark"], "--set-dscp")
    rule.jump(params["set_dscp_mark"] and params["jump"] and jump != "dscp", "DSCP")
    rule.param(params["set_dscp_mark_class"], "--set-dscp-class")
    rule.jump(params["set_dscp_mark_class"] and params["jump"] and jump != "dscp", "DSCP")
    rule.flag(params["syn"], "--syn")
    if "conntrack" in matches:
        rule.csv(params["ctstate"], "--ctstate")
    elif "state" in matches:
        rule.csv(params["ctstate"], "--state")
    elif params["ctstate"]:
        rule.match(True, "conntrack")
        rule.csv(params["ctstate"], "--ctstate")
    if "iprange" not in matches:
        rule.match(params["src_range"] or params["dst_range"], "iprange")
    rule.param(params["src_range"], "--src-range")
    rule.param(params["dst_range"], "--dst-range")
    if "set" not in matches:
        rule.match(params["match_set"], "set")
    rule.param(params["match_set"], "--match-set")
    if params["match_set"] and params["match_set_flags"]:
        rule.args.append(params["match_set_flags"])
    rule.match(params["limit"] or params["limit_burst"], "limit")
    rule.param(params["limit"], "--limit")
    rule.param(params["limit_burst"], "--limit-burst")
    for owner, flag in ((params["uid_owner"], "--uid-owner"), (params["gid_owner"], "--gid-owner")):
        rule.match(owner, "owner")
        rule.param(owner, flag)
    if params["jump"] is None:
        rule.jump(params["reject_with"], "REJECT")
        rule.jump(params["set_dscp_mark_class"], "DSCP")
        rule.jump(params["set_dscp_mark"], "DSCP")
    rule.param(params["reject_with"], "--reject-with")
    rule.param(params["icmp_type"], ICMP_TYPE_FLAG[ip_version])
    rule.match(params["comment"], "comment")
    rule.param(params["comment"], "--comment")
    return rule.args


class Tables(object):
    """One iptables (or ip6tables) binary, one table and chain."""

    def __init__(self, module, binary, ip_version):
        self.module = module
        self.binary = binary
        self.ip_version = ip_version
        params = module.params
        self.prefix = [binary, "-t", params["table"]]
        self.wait = ["-w", params["wait"]] if params["wait"] else []

    def command(self, action, rule=()):
        params = self.module.params
        argv = self.prefix + [action] + ([params["chain"]] if params["chain"] else [])
        if action == "-I" and params["rule_num"]:
            argv.append(params["rule_num"])
        return argv + self.wait + list(rule)

    def run(self, action, rule=(), check_rc=True):
        rc, out, err = self.module.run_command(self.command(action, rule), environ_update={"LANG": "C"})
        if check_rc and rc != 0:
            self.module.fail("'%s' failed: %s" % (" ".join(self.command(action, rule)), err.strip() or out.strip()),
                             rc=rc, stdout=out, stderr=err)
        return rc, out, err

    def listing(self, check_rc):
        return self.run("-L", ["--numeric"] if self.module.params["numeric"] else [], check_rc=check_rc)

    def has_rule(self, rule):
        return self.run("-C", rule, check_rc=False)[0] == 0

    def has_chain(self):
        return self.listing(check_rc=False)[0] == 0

    def policy(self):
        header = self.listing(check_rc=True)[1].split("\n")[0]
        found = re.search(r"\(policy ([A-Z]+)\)", header)
        return found.group(1) if found else None
