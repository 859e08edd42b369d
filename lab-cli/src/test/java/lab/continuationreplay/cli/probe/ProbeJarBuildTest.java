package lab.continuationreplay.cli.probe;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Set;
import java.util.TreeSet;
import javax.xml.parsers.DocumentBuilderFactory;
import lab.continuationreplay.cli.LabProcess;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/**
 * {@code mvn -pl probe -am package} builds the probe's jar without any of the lab's servers, fixtures or stores: the
 * modules it makes are the lab's modules the probe names in any scope (Maven's also-make follows test and provided
 * dependencies too), and theirs. A build-order dependency on a fixture anywhere below the probe would bring npm, the
 * Python environment and go build into that command.
 */
class ProbeJarBuildTest {
    @Test
    void theProbeBuildsFromVectorsHistoryAndWireOnly() throws Exception {
        Path home = LabProcess.home();
        Set<String> made = new TreeSet<>();
        Deque<String> todo = new ArrayDeque<>(Set.of("probe"));
        while (!todo.isEmpty()) {
            String module = todo.pop();
            if (!made.add(module)) {
                continue;
            }
            Path pom = home.resolve(module).resolve("pom.xml");
            Element project = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(Files.newInputStream(pom)).getDocumentElement();
            NodeList dependencies = project.getElementsByTagName("dependency");
            for (int i = 0; i < dependencies.getLength(); i++) {
                Element dependency = (Element) dependencies.item(i);
                if (dependency.getParentNode().getParentNode() != project) {
                    continue; // an exclusion's or a plugin's, not the module's own
                }
                String group = dependency.getElementsByTagName("groupId").item(0).getTextContent().strip();
                if (group.equals("lab.continuationreplay")) {
                    todo.push(dependency.getElementsByTagName("artifactId").item(0).getTextContent().strip());
                }
            }
        }
        assertEquals(new TreeSet<>(Set.of("history", "probe", "vectors", "wire")), made);
    }
}
