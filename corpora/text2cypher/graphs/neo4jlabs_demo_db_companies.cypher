CREATE (o1:Organization {name: 'Larkspur Labs', employees: 120, public: false}),
       (o2:Organization {name: 'Northwind Freight', employees: 2300, public: true}),
       (o3:Organization {name: 'Cobalt Analytics', employees: 45, public: false}),
       (p1:Person {name: 'Rosa Vidal'}), (p2:Person {name: 'Theo Lind'}),
       (c1:City {name: 'Oslo'}), (c2:City {name: 'Lyon'}),
       (p1)-[:CEO_OF]->(o1), (p2)-[:CEO_OF]->(o2),
       (o1)-[:LOCATED_IN]->(c1), (o2)-[:LOCATED_IN]->(c2), (o3)-[:LOCATED_IN]->(c1),
       (o1)-[:SUPPLIES]->(o2), (o3)-[:SUPPLIES]->(o2);
