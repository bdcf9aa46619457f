"""Keep one iptables rule present or absent, set a chain's policy, flush, create or delete a chain."""

from modules._iptables import Tables, build_rule
from modules._spec import argument_spec

DOCUMENTATION = {
    "short_description": "Modify iptables rules",
    "description": [
        "Changes the running rules of the kernel's iptables (and ip6tables with ip_version ipv6 or both), as the "
        "iptables command does; nothing is saved for the next boot. A rule is looked for with iptables -C, so a "
        "second run changes nothing; check mode asks the same way and changes nothing.",
        "The rule's arguments are built in ansible-core's order and returned as rule. flush and policy ignore "
        "the rule; a task with only chain (and table) checks, creates (state present) or deletes (state absent) "
        "the chain itself, the latter two with chain_management.",
        "log_prefix or log_level imply jump LOG; reject_with implies jump REJECT; set_dscp_mark(_class) implies "
        "jump DSCP.",
    ],
    "options": {
        "table": {"description": "The table.", "type": "str", "default": "filter",
                  "choices": ["filter", "nat", "mangle", "raw", "security"]},
        "state": {"description": "Whether the rule (or, with no rule, the chain) should be present.",
                  "type": "str", "default": "present", "choices": ["absent", "present"]},
        "action": {"description": "append a new rule at the end, or insert it at the top (or at rule_num).",
                   "type": "str", "default": "append", "choices": ["append", "insert"]},
        "ip_version": {"description": "ipv4 (iptables), ipv6 (ip6tables) or both.", "type": "str",
                       "default": "ipv4", "choices": ["ipv4", "ipv6", "both"]},
        "chain": {"description": "The chain (INPUT, FORWARD, OUTPUT, ... or a chain of your own).", "type": "str"},
        "rule_num": {"description": "Where an inserted rule goes.", "type": "str"},
        "protocol": {"description": "-p: tcp, udp, icmp, all, a number ... (! negates).", "type": "str"},
        "source": {"description": "-s: an address, network or host name (! negates).", "type": "str"},
        "destination": {"description": "-d: an address, network or host name (! negates).", "type": "str"},
        "match": {"description": "-m extensions, in order.", "type": "list", "elements": "str", "default": []},
        "tcp_flags": {"description": "--tcp-flags: flags (the mask) and flags_set.", "type": "dict",
                      "options": {"flags": {"description": "The flags examined.", "type": "list",
                                            "elements": "str"},
                                  "flags_set": {"description": "Those that must be set.", "type": "list",
                                                "elements": "str"}}},
        "jump": {"description": "-j: the target.", "type": "str"},
        "gateway": {"description": "With jump TEE: where cloned packets go.", "type": "str"},
        "log_prefix": {"description": "With jump LOG: the prefix of log lines.", "type": "str"},
        "log_level": {"description": "With jump LOG: the syslog level.", "type": "str",
                      "choices": ["0", "1", "2", "3", "4", "5", "6", "7", "emerg", "alert", "crit", "error",
                                  "warning", "notice", "info", "debug"]},
        "goto": {"description": "-g: continue in this chain, without return.", "type": "str"},
        "in_interface": {"description": "-i: the incoming interface (! negates).", "type": "str"},
        "out_interface": {"description": "-o: the outgoing interface (! negates).", "type": "str"},
        "fragment": {"description": "-f: second and later fragments only.", "type": "str"},
        "set_counters": {"description": "-c: initial packet and byte counters.", "type": "str"},
        "source_port": {"description": "--source-port: a port or first:last.", "type": "str"},
        "destination_port": {"description": "--destination-port: a port or first:last.", "type": "str"},
        "destination_ports": {"description": "--dports of the multiport match.", "type": "list",
                              "elements": "str", "default": []},
        "to_ports": {"description": "--to-ports (REDIRECT, MASQUERADE).", "type": "str"},
        "to_source": {"description": "--to-source (SNAT).", "type": "str"},
        "to_destination": {"description": "--to-destination (DNAT).", "type": "str"},
        "set_dscp_mark": {"description": "--set-dscp (with jump DSCP).", "type": "str"},
        "set_dscp_mark_class": {"description": "--set-dscp-class (with jump DSCP).", "type": "str"},
        "comment": {"description": "A comment on the rule (the comment match).", "type": "str"},
        "ctstate": {"description": "Connection states (conntrack, or state with match state).", "type": "list",
                    "elements": "str", "default": []},
        "src_range": {"description": "--src-range of the iprange match.", "type": "str"},
        "dst_range": {"description": "--dst-range of the iprange match.", "type": "str"},
        "match_set": {"description": "An ipset name (the set match).", "type": "str"},
        "match_set_flags": {"description": "The set's directions.", "type": "str",
                            "choices": ["src", "dst", "src,dst", "dst,src", "dst,dst", "src,src"]},
        "limit": {"description": "--limit: average matches (5/second ...).", "type": "str"},
        "limit_burst": {"description": "--limit-burst.", "type": "str"},
        "uid_owner": {"description": "--uid-owner (! negates).", "type": "str"},
        "gid_owner": {"description": "--gid-owner (! negates).", "type": "str"},
        "reject_with": {"description": "--reject-with; implies jump REJECT.", "type": "str"},
        "icmp_type": {"description": "--icmp-type (--icmpv6-type for ipv6).", "type": "str"},
        "syn": {"description": "match or negate --syn; ignore leaves it out.", "type": "str", "default": "ignore",
                "choices": ["ignore", "match", "negate"]},
        "flush": {"description": "Flush the chain (or the whole table without chain).", "type": "bool",
                  "default": False},
        "policy": {"description": "Set a built-in chain's policy.", "type": "str",
                   "choices": ["ACCEPT", "DROP", "QUEUE", "RETURN"]},
        "wait": {"description": "-w: seconds to wait for the xtables lock.", "type": "str"},
        "chain_management": {"description": "Create (present) or delete (absent) the chain when the task names "
                                            "no rule.", "type": "bool", "default": False},
        "numeric": {"description": "List with --numeric (no name lookups) when reading a chain or policy.",
                    "type": "bool", "default": False},
    },
}

EXAMPLES = """
- name: Accept SSH from the management network
  iptables:
    chain: INPUT
    protocol: tcp
    source: 192.0.2.0/24
    destination_port: "22"
    jump: ACCEPT
    comment: ssh from management

- name: Drop what is not accepted
  iptables:
    chain: INPUT
    policy: DROP
"""

RETURN = {
    "rule": "The rule's arguments as one line",
    "table": "The table", "chain": "The chain", "state": "The state asked", "ip_version": "The IP version(s)",
    "flush": "Whether the chain was flushed", "chain_management": "As given", "wait": "As given",
}

ARGUMENT_SPEC = argument_spec(DOCUMENTATION["options"])
SPEC_RULES = {
    "mutually_exclusive": [["set_dscp_mark", "set_dscp_mark_class"], ["flush", "policy"]],
    "required_if": [["jump", "TEE", ["gateway"]], ["jump", "tee", ["gateway"]], ["flush", False, ["chain"]]],
}
SUPPORTS_CHECK_MODE = True


def converge(module, tables, rule):
    """Bring one binary's table to what was asked; True when it changed (or would)."""
    params = module.params
    check = module.check_mode
    if params["flush"]:
        if not check:
            tables.run("-F")
        return True
    if params["policy"]:
        current = tables.policy()
        if not current:
            module.fail("Can't detect current policy")
        if current != params["policy"] and not check:
            tables.run("-P", [params["policy"]])
        return current != params["policy"]
    if not rule:
        present = tables.has_chain()
        wanted = params["state"] == "present"
        if present != wanted and params["chain_management"] and not check:
            tables.run("-N" if wanted else "-X")
        return present != wanted
    present = tables.has_rule(rule)
    wanted = params["state"] == "present"
    if present != wanted and not check:
        if not wanted:
            tables.run("-D", rule)
        else:
            tables.run("-I" if params["action"] == "insert" else "-A", rule)
    return present != wanted


def run(module):
    params = module.params
    for dscp in ("set_dscp_mark", "set_dscp_mark_class"):
        if params[dscp] and not params["jump"]:
            module.fail("missing parameter(s) required by '%s': jump" % dscp)
    if params["log_prefix"] or params["log_level"]:
        if params["jump"] is None:
            params["jump"] = "LOG"
        elif params["jump"] != "LOG":
            module.fail("Logging options can only be used with the LOG jump target.")
    versions = ["ipv4", "ipv6"] if params["ip_version"] == "both" else [params["ip_version"]]
    result = {"changed": False, "ip_version": params["ip_version"], "table": params["table"],
              "chain": params["chain"], "flush": params["flush"], "rule": " ".join(build_rule(params, versions[0])),
              "state": params["state"], "chain_management": params["chain_management"], "wait": params["wait"]}
    for version in versions:
        binary = module.get_bin_path("iptables" if version == "ipv4" else "ip6tables", required=True)
        changed = converge(module, Tables(module, binary, version), build_rule(params, version))
        result["changed"] = result["changed"] or changed
    return result
